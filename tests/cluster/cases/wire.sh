# wire.sh — the wire between the nodes, proven with the smallest programs before rmp uses it
# (sourced by tests/cluster/run-cases on rmp-c1; see its header for what a case file gets).
# - wire-hosts: every node's hostname and address, and each reached from rmp-c1 over the wire
#   (its kernel refuses a TCP connection: the RST came back);
# - wire-rc-pingpong-*: rdma-core's ibv_rc_pingpong between two kernels (server on one node,
#   client on another; each side prints the other's GID): across node 1's bridge (rmp-c3 to
#   rmp-c2) with three nodes, rmp-c1 to rmp-c2 with two;
# - wire-mckey-multicast: librdmacm's mckey, the join rmp's multicast bcast makes: one
#   receiver on every node (the sender's own kernel included) joins 239.43.0.1, rmp-c1 sends,
#   and every receiver must get every datagram: multicast carried across kernels.

WIRE_T=60   # a client's bound; servers get 3x (they start first, and TCG guests on a loaded host
            # can take 10 s to start a program)

# LOG PATTERN: wait (bounded) until a server's output shows it is up.
wire_wait_up() {
    local i
    for i in $(seq $((WIRE_T * 10))); do
        grep -q -- "$2" "$1" 2>/dev/null && return 0
        [ -e "$1.rc" ] && break
        sleep 0.2
    done
    echo "wire: the server never printed /$2/ (log $1)"
    return 1
}

# CLIENT_NODE SERVER_NODE PROG ARGS...: PROG's server on SERVER_NODE, its client on CLIENT_NODE
# (here when 1), started once the server is up; both outputs, the server's after a marker.
wire_pair() {
    local cn=$1 sn=$2 prog=$3 i rc=1 slog
    shift 3
    slog=$LOGS/wire-server.$$.$sn
    serve_on -t $((WIRE_T * 3 + 10)) "$sn" "$slog" sh -c "timeout $((WIRE_T * 3)) stdbuf -oL $prog -d \$RXE_DEV -g \$RXE_GID_IDX $*"
    # It prints its address just before it listens: a few tries cover the gap.
    wire_wait_up "$slog" "local address" &&
    for i in 1 2 3 4 5; do
        if [ "$cn" = 1 ]; then
            timeout "$WIRE_T" "$prog" -d "$RXE_DEV" -g "$RXE_GID_IDX" "$@" "rmp-c$sn"
        else
            on_node -t "$WIRE_T" "$cn" sh -c "$prog -d \$RXE_DEV -g \$RXE_GID_IDX $* rmp-c$sn"
        fi
        rc=$?
        [ $rc = 0 ] && break
        sleep 1
    done
    wait
    echo "---- server on rmp-c$sn (exit $(cat "$slog.rc" 2>/dev/null)):"
    cat "$slog"
    [ "$(cat "$slog.rc" 2>/dev/null)" = 0 ] || rc=1
    rm -f "$slog" "$slog.rc"
    return $rc
}

# Every node's name and address (asked through its agent), then each reached over the wire from
# rmp-c1: a TCP connection to a closed port is refused by that node's kernel (an RST back
# within the bound, not a timeout), and its MAC is then in rmp-c1's neighbour table.
wire_hosts() {
    local j out bad=0
    for j in $(seq "$CLUSTER_NODES"); do
        out=$(on_node "$j" sh -c 'echo "$(hostname) $(ip -4 -o addr show dev $CLUSTER_NETDEV | awk "{print \$4}")"')
        echo "wire: node $j is $out"
        [ "$out" = "rmp-c$j 10.43.0.$j/24" ] || bad=1
    done
    for j in $(seq 2 "$CLUSTER_NODES"); do
        out=$(timeout 10 bash -c 'exec 3<>"/dev/tcp/rmp-c$0/4343"' "$j" 2>&1)
        case $out in
            *"Connection refused"*) echo "wire: $(hostname) -> rmp-c$j: TCP refused by its kernel (the wire works)" ;;
            *) echo "wire: $(hostname) -> rmp-c$j: no answer: $out"; bad=1 ;;
        esac
    done
    echo "wire: neighbours of $(hostname):"
    ip neigh show dev "$CLUSTER_NETDEV"
    return $bad
}
export -f wire_hosts wire_pair wire_wait_up
export WIRE_T LOGS

hosts_pat=()
for j in $(seq "$CLUSTER_NODES"); do
    hosts_pat+=("^wire: node $j is rmp-c$j 10\.43\.0\.$j/24")
    [ "$j" -gt 1 ] && hosts_pat+=("^wire: rmp-c1 -> rmp-c$j: TCP refused by its kernel" "^10\.43\.0\.$j lladdr 52:54:00:43:")
done
check wire-hosts 120 0 "${hosts_pat[@]}" -- bash -c wire_hosts

rc_case() { # NAME CLIENT SERVER: both sides name the other's GID
    check "$1" 240 0 "remote address: .*GID ::ffff:10\.43\.0\.$3" "remote address: .*GID ::ffff:10\.43\.0\.$2" \
        "[0-9]+ iters in [0-9.]+ seconds" "^---- server on rmp-c$3 \(exit 0\)" -- \
        bash -c "wire_pair $2 $3 ibv_rc_pingpong -n 50"
}
# One RC pair: across node 1's bridge (rmp-c3 to rmp-c2) when there are 3 nodes, the longer
# path, else rmp-c1 to rmp-c2. RC and UD straight between rmp-c1 and rmp-c2 are what every
# slurm-* and mcast-* case crosses, both ways (the slurm-wiring cases name each direction's QPs).
if [ "$CLUSTER_NODES" -ge 3 ]; then
    rc_case wire-rc-pingpong-c3-c2-bridged 3 2
else
    rc_case wire-rc-pingpong-c1-c2 1 2
fi

# Multicast across kernels: a receiver on every node (rmp-c1's beside the sender) joins, and
# only once every join is answered does rmp-c1 send; each receiver then needs all 20 datagrams
# (mckey waits for exactly that many: a lost one is a timeout, not a pass).
wire_mckey() {
    local g=239.43.0.1 n=20 j ok=0 rc=0
    for j in $(seq "$CLUSTER_NODES"); do
        serve_on -t $((WIRE_T * 3 + 10)) "$j" "$LOGS/wire-mckey.$j" sh -c "timeout $((WIRE_T * 3)) stdbuf -oL mckey -m $g -b 10.43.0.$j -C $n -S 100; echo \"mckey on \$(hostname): exit \$?\"; ip maddr show dev \$CLUSTER_NETDEV | grep -i 'link  33:33:ef:2b:00:01\|link  01:00:5e:2b:00:01'"
    done
    for j in $(seq "$CLUSTER_NODES"); do
        wire_wait_up "$LOGS/wire-mckey.$j" "^mckey: joined" && ok=$((ok + 1))
    done
    echo "wire: $ok of $CLUSTER_NODES receivers joined $g; sending $n datagrams from $(hostname)"
    timeout "$WIRE_T" mckey -m "$g" -b "$RXE_IP" -s -C "$n" -S 100 || rc=1
    wait
    for j in $(seq "$CLUSTER_NODES"); do
        echo "---- receiver on rmp-c$j:"
        cat "$LOGS/wire-mckey.$j"
        grep -q "^mckey on rmp-c$j: exit 0" "$LOGS/wire-mckey.$j" && echo "wire: rmp-c$j received all $n multicast datagrams"
        rm -f "$LOGS/wire-mckey.$j" "$LOGS/wire-mckey.$j.rc"
    done
    return $rc
}
export -f wire_mckey
mc_pats=()
for j in $(seq "$CLUSTER_NODES"); do mc_pats+=("^wire: rmp-c$j received all 20 multicast datagrams"); done
check wire-mckey-multicast 240 0 "^wire: $CLUSTER_NODES of $CLUSTER_NODES receivers joined" \
    "${mc_pats[@]}" -- bash -c wire_mckey
unset mc_pats hosts_pat
unset -f rc_case
