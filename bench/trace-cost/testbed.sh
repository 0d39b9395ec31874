# Veth test bed for the trace test and the trace-cost bench (sourced, bash): two network
# namespaces joined by a veth pair with GRO on, so the DUT side has a real NAPI instance.
# Names start with nbt, addresses are 10.200.50.1 (DUT) and 10.200.50.2 (peer).

TB_TAG=${TB_TAG:-$$}
TB_DUT_NS=nbt-dut-$TB_TAG
TB_PEER_NS=nbt-peer-$TB_TAG
TB_DUT_IF=nbtd$TB_TAG
TB_PEER_IF=nbtp$TB_TAG
TB_DUT_IP=10.200.50.1
TB_PEER_IP=10.200.50.2
TB_SERVER_PID=

tb_up() {
	ip netns add "$TB_DUT_NS" && ip netns add "$TB_PEER_NS" || return 1
	ip link add "$TB_DUT_IF" netns "$TB_DUT_NS" type veth peer name "$TB_PEER_IF" netns "$TB_PEER_NS" || return 1
	ip -n "$TB_DUT_NS" addr add "$TB_DUT_IP/24" dev "$TB_DUT_IF" &&
	ip -n "$TB_PEER_NS" addr add "$TB_PEER_IP/24" dev "$TB_PEER_IF" &&
	ip -n "$TB_DUT_NS" link set "$TB_DUT_IF" up &&
	ip -n "$TB_PEER_NS" link set "$TB_PEER_IF" up &&
	ip -n "$TB_DUT_NS" link set lo up &&
	ip -n "$TB_PEER_NS" link set lo up || return 1
	# veth has a NAPI instance only with GRO on (or XDP attached)
	ip netns exec "$TB_DUT_NS" ethtool -K "$TB_DUT_IF" gro on >/dev/null &&
	ip netns exec "$TB_PEER_NS" ethtool -K "$TB_PEER_IF" gro on >/dev/null || return 1
	ip netns exec "$TB_PEER_NS" iperf3 -s -B "$TB_PEER_IP" >/dev/null 2>&1 &
	TB_SERVER_PID=$!
	for _ in $(seq 50); do
		ip netns exec "$TB_PEER_NS" ss -ltn 2>/dev/null | grep -q ":5201 " && return 0
		sleep 0.1
	done
	return 1
}

# The threaded attribute of the DUT interface (sysfs of the DUT namespace).
tb_set_threaded() {
	ip netns exec "$TB_DUT_NS" sh -c "echo $1 > /sys/class/net/$TB_DUT_IF/threaded"
}

tb_down() {
	if [ -n "$TB_SERVER_PID" ]; then
		kill "$TB_SERVER_PID" 2>/dev/null
		wait "$TB_SERVER_PID" 2>/dev/null
		TB_SERVER_PID=
	fi
	ip netns del "$TB_DUT_NS" 2>/dev/null
	ip netns del "$TB_PEER_NS" 2>/dev/null
	return 0
}
