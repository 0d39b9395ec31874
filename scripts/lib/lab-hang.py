#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Where a hung lab guest is, asked before scripts/lab stops it.

usage: lab-hang.py MONITOR_SOCKET SYSTEM_MAP|- ARCH OUT

Talks to QEMU's human monitor on MONITOR_SOCKET:
  - samples every vCPU's registers (`info registers -a`) a few times, so that a vCPU spinning in one
    function shows as one symbol and a halted (idle) x86 one says so (HLT=1), as does one with its
    interrupts off (RFLAGS.IF clear) or in an STI shadow (II=1): this needs nothing of the guest;
    the samples go to OUT;
  - on x86_64, presses Alt+SysRq+9 (console loglevel 9), then +l and +w on the emulated keyboard: the
    guest kernel prints the backtrace of every CPU and the blocked tasks on its console, if a CPU still
    takes interrupts
    (the guest boots with sysrq_always_enabled).
Program counters are resolved against SYSTEM_MAP (System.map or /proc/kallsyms lines; the guest boots
with nokaslr, so the symbols it read at boot still hold). Writes the samples to OUT and prints a short
summary, one line a vCPU. Exit 1 when the monitor cannot be reached.
NB_LAB_HANG_PACE (default 1) scales the waits between samples and after each key: its test sets it low,
against a fake monitor that needs no time to settle.
"""
import bisect
import os
import re
import socket
import sys
import time

SAMPLES = 5
SAMPLE_GAP_S = 0.4


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(path)
    read_to_prompt(sock)  # the banner
    return sock


def read_to_prompt(sock):
    buf = b""
    while not buf.endswith(b"(qemu) "):
        data = sock.recv(65536)
        if not data:  # QEMU gone: no answer, not an empty one
            raise ConnectionError("the monitor closed its socket")
        buf += data
    return buf


def command(sock, cmd):
    sock.sendall(cmd.encode() + b"\n")
    out = read_to_prompt(sock).decode(errors="replace")
    out = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out).replace("\r", "")
    lines = out.split("\n")
    # the monitor echoes the command first and ends with its prompt
    return "\n".join(line for line in lines[1:-1] if line.strip())


def load_map(path):
    addrs, names = [], []
    if path == "-":
        return addrs, names
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[1] in ("t", "T"):
                    addrs.append(int(parts[0], 16))
                    # a module's symbol: "name [module]" in /proc/kallsyms
                    names.append(parts[2] + (" " + parts[3] if len(parts) > 3 else ""))
    except OSError:
        pass
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def symbol(pc, addrs, names):
    i = bisect.bisect_right(addrs, pc) - 1
    if i < 0 or pc - addrs[i] > 0x100000:
        return hex(pc)
    name, _, module = names[i].partition(" ")
    return "%s+%#x%s" % (name, pc - addrs[i], " " + module if module else "")


def split_cpus(text):
    """(vCPU index, its register text) for each "CPU#N" block of `info registers -a`."""
    parts = re.split(r"^CPU#(\d+)\s*$", text, flags=re.M)
    return [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


def program_counter(regs):
    # x86_64: RIP=..., arm64: PC=..., riscv64: " pc       ..."
    m = re.search(r"\bRIP=([0-9a-f]+)|\bPC=([0-9a-f]+)|^\s*pc\s+([0-9a-f]+)", regs, flags=re.M)
    return int(next(g for g in m.groups() if g), 16) if m else None


def halted(regs):
    m = re.search(r"\bHLT=([01])", regs)
    return m.group(1) == "1" if m else None


def interrupt_state(regs):
    """x86_64: (interrupts enabled: RFLAGS.IF, in an STI or MOV SS shadow: II), None where not said.
    A spinning vCPU with interrupts off takes no IPI, so another CPU that waits on one soft-locks."""
    efl = re.search(r"\b[ER]FL=([0-9a-f]+)", regs)  # RFL= in 64-bit mode, EFL= in 32-bit
    ii = re.search(r"\bII=([01])", regs)
    return (bool(int(efl.group(1), 16) & 0x200) if efl else None, ii.group(1) == "1" if ii else None)


def main():
    if len(sys.argv) != 5:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    try:
        pace = float(os.environ.get("NB_LAB_HANG_PACE", "1"))
    except ValueError:
        pace = -1
    if not 0 <= pace <= 10:
        print("NB_LAB_HANG_PACE '%s': expected a factor 0..10" % os.environ["NB_LAB_HANG_PACE"], file=sys.stderr)
        return 2
    sock_path, map_path, arch, out_path = sys.argv[1:]
    try:
        sock = connect(sock_path)
    except OSError as e:
        print("the monitor at %s did not answer (%s)" % (sock_path, e.strerror or e))
        return 1
    addrs, names = load_map(map_path)
    seen = {}  # vCPU -> list of (symbol, halted, IF, II): True, False or None where the registers do not say
    report = []
    try:
        for n in range(SAMPLES):
            text = command(sock, "info registers -a")
            report.append("sample %d, info registers -a:\n%s" % (n + 1, text))
            for cpu, regs in split_cpus(text):
                pc = program_counter(regs)
                if pc is not None:
                    seen.setdefault(cpu, []).append((symbol(pc, addrs, names), halted(regs)) +
                                                    interrupt_state(regs))
            time.sleep(SAMPLE_GAP_S * pace)
        if arch == "x86_64":
            # 9 first: the guests boot with loglevel=4, and the backtraces are printed below it
            for key, wait_s in (("9", 0.5), ("l", 3), ("w", 2)):
                command(sock, "sendkey alt-sysrq-" + key)
                time.sleep(wait_s * pace)
    except OSError as e:  # a monitor that stops answering (timeout, QEMU gone): keep what came
        print("the monitor stopped answering (%s); %d samples taken" % (e.strerror or e, len(report)))
    with open(out_path, "w") as f:
        f.write("\n\n".join(report) + "\n")
    for cpu in sorted(seen):
        samples = seen[cpu]
        where = sorted(set(s[0] for s in samples))
        flags = [s[1] for s in samples if s[1] is not None]
        if not flags:
            state = "in %d samples" % len(samples)
        elif all(flags):
            state = "halted (idle) in %d of %d samples" % (len(flags), len(samples))
        else:
            state = "running in %d of %d samples" % (flags.count(False), len(samples))
        irq_off = [s for s in samples if s[2] is False]
        if irq_off:
            state += ", interrupts off in %d" % len(irq_off)
        shadow = [s for s in samples if s[3]]
        if shadow:
            state += ", in an STI shadow (II=1) in %d" % len(shadow)
        print("vCPU %d: %s, at %s" % (cpu, state, ", ".join(where[:4])))
    if not seen:
        print("the monitor listed no vCPU (see %s)" % out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
