# SPDX-License-Identifier: MIT
# Host load for the lab benches (sourced): N busy loops on this machine that a pacer stops and continues
# every 20 s, the shared host's slow and fast modes (bench/host-modes) made here, so that the guest's vCPU
# threads lose the CPU at random points. Each loop and the pacer are ended by their PIDs.
#   host_load_start N   starts N loops (nothing when N is 0)
#   host_load_stop      ends them; safe to call twice, and from an EXIT trap
host_load_hogs=() host_load_pacer=""
host_load_start() {
	local i
	host_load_hogs=()
	[ "$1" -gt 0 ] || return 0
	for i in $(seq 1 "$1"); do
		(while :; do :; done) &
		host_load_hogs+=($!)
	done
	(while sleep 20; do kill -STOP "${host_load_hogs[@]}"; sleep 20; kill -CONT "${host_load_hogs[@]}"; done) 2>/dev/null &
	host_load_pacer=$!
}
host_load_stop() {
	[ -n "$host_load_pacer" ] && kill "$host_load_pacer" 2>/dev/null && wait "$host_load_pacer" 2>/dev/null
	if [ ${#host_load_hogs[@]} -gt 0 ]; then
		kill -CONT "${host_load_hogs[@]}" 2>/dev/null
		kill "${host_load_hogs[@]}" 2>/dev/null
		wait "${host_load_hogs[@]}" 2>/dev/null
	fi
	host_load_pacer="" host_load_hogs=()
}
