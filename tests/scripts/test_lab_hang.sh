#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lib/lab-hang.py against a fake QEMU monitor that answers `info registers -a` with registers a real
# hung-path run recorded (tests/fixtures/lab-hang: QEMU 7.2, Debian 12's 6.1 guest with e1000e, 2 vCPUs, TCG,
# a tcp-tx run past a 30 s deadline; the guest's own kallsyms, cut to the symbols around the sampled
# addresses). Checks the summary lines: each vCPU's program
# counters resolved to symbols, halted or running, and interrupts off / an STI shadow where the
# registers say so; the samples kept in OUT; SysRq pressed on x86_64 only; a monitor that goes away
# mid-dump keeps what came; a socket nobody listens on is exit 1.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
fix=$NB_SRC/tests/fixtures/lab-hang
tmp=$(mktemp -d /tmp/nb-lab-hang-test.XXXXXX)
monitor_pid=""
trap '[ -z "$monitor_pid" ] || kill "$monitor_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
# the fake monitor answers at once: lab-hang.py's waits (7.5 s a dump) scaled down
export NB_LAB_HANG_PACE=0.05
check() {
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

# fake_monitor SOCKET SAMPLES_FILE [STOP_AFTER]: a unix socket that talks like QEMU's human monitor
# (banner, "(qemu) " prompt, the command echoed) and answers `info registers -a` with the next sample of
# SAMPLES_FILE (lab-hang.py's own hang.txt format), in turn; every command goes to SOCKET.log. With
# STOP_AFTER, it closes the connection after that many commands.
fake_monitor() {
	python3 - "$@" <<'PY' &
import os, re, socket, sys
path, samples_file = sys.argv[1], sys.argv[2]
stop_after = int(sys.argv[3]) if len(sys.argv) > 3 else None
samples = [s.split(":\n", 1)[1] for s in re.split(r"\n\n(?=sample \d+, )", open(samples_file).read().strip())]
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(1)
open(path + ".ready", "w").close()
conn, _ = srv.accept()
log = open(path + ".log", "w")
conn.sendall(b"QEMU 7.2.19 monitor - type 'help' for more information\r\n(qemu) ")
buf, n, k = b"", 0, 0
while True:
    data = conn.recv(4096)
    if not data:
        break
    buf += data
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        cmd = line.decode().strip()
        log.write(cmd + "\n")
        log.flush()
        n += 1
        if stop_after is not None and n > stop_after:
            conn.close()
            sys.exit(0)
        answer = ""
        if cmd == "info registers -a":
            answer = samples[k % len(samples)].replace("\n", "\r\n") + "\r\n"
            k += 1
        conn.sendall(cmd.encode() + b"\r\n" + answer.encode() + b"(qemu) ")
PY
	monitor_pid=$!
	for _ in $(seq 50); do [ -e "$1.ready" ] && return 0; sleep 0.1; done
	echo "FAIL: the fake monitor did not start"
	exit 1
}

# 1. The recorded samples of 6.1 x86_64: both vCPUs located, kept in OUT, SysRq l and w pressed.
fake_monitor "$tmp/m1.sock" "$fix/hang-6.1-x86_64.txt"
out=$(python3 "$NB_SRC/scripts/lib/lab-hang.py" "$tmp/m1.sock" "$fix/kallsyms-6.1-x86_64" x86_64 "$tmp/hang1.txt")
rc=$?
wait "$monitor_pid"
monitor_pid=""
echo "$out"
check "exit 0" test "$rc" = 0
for cpu in 0 1; do
	check "vCPU $cpu: one line, its program counter resolved to a symbol" \
		grep -Eq "^vCPU $cpu: (halted \(idle\)|running) in [0-9] of 5 samples.*, at [a-z_][a-z0-9_.]*\+0x[0-9a-f]+" <<<"$out"
done
# the expected lines were counted by hand from the fixture's RIP, RFL (IF = 0x200) and HLT fields
check "the lines are the ones expected from the fixture" \
	test "$out" = "$(cat "$fix/expected-6.1-x86_64")"
check "five samples kept in OUT" test "$(grep -c '^sample [0-9], info registers -a:' "$tmp/hang1.txt")" = 5
check "SysRq 9 (loglevel), l and w pressed after the samples" \
	test "$(grep sendkey "$tmp/m1.sock.log" | tr '\n' ' ')" = "sendkey alt-sysrq-9 sendkey alt-sysrq-l sendkey alt-sysrq-w "

# 2. The same registers with vCPU 1's RFLAGS.IF cleared and II set (derived from the fixture, as a vCPU
# spinning with interrupts off in an STI shadow would show): said on vCPU 1's line, not on vCPU 0's.
python3 - "$fix/hang-6.1-x86_64.txt" >"$tmp/irqoff.txt" <<'PY'
import re, sys
cpu = None
for line in open(sys.argv[1]):
    m = re.match(r"CPU#(\d+)", line)
    if m:
        cpu = m.group(1)
    if cpu == "1":
        line = re.sub(r"RFL=([0-9a-f]+)", lambda e: "RFL=%08x" % (int(e.group(1), 16) & ~0x200), line)
        line = line.replace("II=0", "II=1")
    sys.stdout.write(line)
PY
fake_monitor "$tmp/m2.sock" "$tmp/irqoff.txt"
out=$(python3 "$NB_SRC/scripts/lib/lab-hang.py" "$tmp/m2.sock" "$fix/kallsyms-6.1-x86_64" x86_64 "$tmp/hang2.txt")
wait "$monitor_pid"
monitor_pid=""
echo "$out"
check "vCPU 1: interrupts off in 5, in an STI shadow in 5" \
	grep -Eq "^vCPU 1: .*, interrupts off in 5, in an STI shadow \(II=1\) in 5, at " <<<"$out"
check "vCPU 0's line as before" test "$(grep '^vCPU 0: ' <<<"$out")" = "$(grep '^vCPU 0: ' "$fix/expected-6.1-x86_64")"

# 3. A monitor that goes away after two samples: the two are kept and said, exit 0; no SysRq.
fake_monitor "$tmp/m3.sock" "$fix/hang-6.1-x86_64.txt" 2
out=$(python3 "$NB_SRC/scripts/lib/lab-hang.py" "$tmp/m3.sock" "$fix/kallsyms-6.1-x86_64" x86_64 "$tmp/hang3.txt")
rc=$?
wait "$monitor_pid"
monitor_pid=""
echo "$out"
check "monitor gone mid-dump: exit 0, the samples taken said" \
	grep -q "the monitor stopped answering .*; 2 samples taken" <<<"$out"
check "monitor gone mid-dump: rc 0 and two samples in OUT" \
	test "$rc" = 0 -a "$(grep -c '^sample [0-9], ' "$tmp/hang3.txt")" = 2

# 4. arm64 gets no SysRq (no keyboard); nothing listening is exit 1 with a sentence.
fake_monitor "$tmp/m4.sock" "$fix/hang-6.1-x86_64.txt"
python3 "$NB_SRC/scripts/lib/lab-hang.py" "$tmp/m4.sock" - arm64 "$tmp/hang4.txt" >/dev/null
wait "$monitor_pid"
monitor_pid=""
check "arm64: no sendkey" bash -c '! grep -q sendkey "$1"' _ "$tmp/m4.sock.log"
out=$(python3 "$NB_SRC/scripts/lib/lab-hang.py" "$tmp/nobody.sock" - x86_64 "$tmp/hang5.txt")
rc=$?
check "no monitor: exit 1 ($out)" test "$rc" = 1 -a -n "$out"

[ "$failures" -eq 0 ] && echo PASS || { echo "$failures failed"; exit 1; }
