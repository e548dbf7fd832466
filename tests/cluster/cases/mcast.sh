# mcast.sh — bcast over UD multicast (RMP_MCAST=on) with members on several kernels, under
# `srun --mpi=pmix` (sourced by tests/cluster/run-cases on rmp-c1; see run-cases for what a
# case file gets). tests/vm/verbs_mcast checks every byte at every root; ranks are placed
# cyclically, so rank r runs on rmp-c<1 + r mod nodes>. Each case requires, from RMP_VERBOSE,
# the group joined by a rank on every node and datagrams received by a rank on every node (the
# close line's counters), summed up per node as "mcast: rmp-cI: ... received":
# - mcast-n4: 4 ranks on 2 nodes, sizes around the 984-byte fragment, 64 KiB and 1 MiB;
# - mcast-netem-n4: the same with netem dropping 5% of rmp-c2's outgoing multicast datagrams
#   (its qdisc back to the FIFO afterwards): lost datagrams repaired, still byte-exact, and
#   netem's counters show the drops (the runtime's own injected loss, RMP_MCAST_DROP, is the
#   VM suite's: make check-vm);
# - mcast-n6-nodes3 (3 nodes): fan-out to three kernels, rmp-c2 to rmp-c3 across node 1's bridge.

read -r -a MC_HOSTS <<<"$CLUSTER_HOSTS"
MC_ARGS=(1 983 984 985 64k 1m)
export VMB

# NODES N DROP CMD-PREFIX...: one verbs_mcast job, then per node what its ranks joined and got.
mcast_job() {
    local nodes=$1 n=$2 drop=$3 out
    shift 3
    # the lines go to the case's log as they come (a job cut by the case's timeout still
    # shows what it said, srun's "queued and waiting for resources" included)
    env RMP_MCAST=on RMP_MCAST_DROP="$drop" RMP_VERBOSE=1 \
        srun --mpi=pmix -O -N "$nodes" -n "$n" -m cyclic "$VMB/verbs_mcast" "$@" 2>&1 |
        tee /tmp/mcast-job.out
    local rc=${PIPESTATUS[0]}
    out=$(cat /tmp/mcast-job.out)
    echo "$out" | awk -v nodes="$nodes" '
        /^rmp\[[0-9]+\]: verbs: mcast: joined group / {
            r = substr($0, 5, index($0, "]") - 5); j[r % nodes]++
        }
        /^rmp\[[0-9]+\]: verbs: mcast: [0-9]+ bcasts; / {
            r = substr($0, 5, index($0, "]") - 5)
            s = $0; sub(/ received,.*/, "", s); sub(/.* sent, /, "", s); got[r % nodes] += s
            d = $0; sub(/ dropped on purpose.*/, "", d); sub(/.* received, /, "", d); drop[r % nodes] += d
        }
        END {
            for (i = 0; i < nodes; i++)
                printf "mcast: rmp-c%d: %d ranks joined the group, %d datagrams received, %d dropped on purpose\n",
                    i + 1, j[i], got[i], drop[i]
        }'
    return $rc
}
export -f mcast_job

# netem on node 2's NIC for the job's length, the FIFO back whatever happened
mcast_netem() {
    # Only the multicast datagrams (IPv4 224.0.0.0/4) go through netem: a prio qdisc whose
    # third band is netem, chosen by a u32 filter; the rest (RC repairs and the job's p2p)
    # keep band 2's FIFO: RC over a lossy wire would spend the case in 1 s retry timeouts.
    on_node 2 sh -c "tc qdisc replace dev $MC_NET2 root handle 1: prio &&
        tc qdisc add dev $MC_NET2 parent 1:3 handle 30: netem loss 5% limit 10000 &&
        tc qdisc add dev $MC_NET2 parent 1:2 handle 20: pfifo limit 10000 &&
        tc filter add dev $MC_NET2 parent 1: protocol ip prio 1 u32 \
            match ip dst 224.0.0.0/4 flowid 1:3" || return 99
    on_node 2 tc qdisc show dev "$MC_NET2" | sed 's/^/mcast: rmp-c2: /'
    mcast_job 2 4 0 "${@}"
    local rc=$?
    on_node 2 tc -s qdisc show dev "$MC_NET2" | sed 's/^/mcast: rmp-c2: /'
    on_node 2 tc qdisc replace dev "$MC_NET2" root pfifo limit 10000 || return 99
    return $rc
}
export -f mcast_netem

# lines every case needs: byte-exact, and per node a join and datagrams received
mc_pats() { # NODES N
    local i
    echo "verbs_mcast: $2 ranks, .*: ok"
    for i in $(seq "$1"); do
        echo "^mcast: rmp-c$i: [1-9][0-9]* ranks joined the group, [1-9][0-9]* datagrams received"
    done
}

if [ "${#MC_HOSTS[@]}" -ge 2 ]; then
    MC_NET2=$NETDEV2
    export MC_NET2
    mapfile -t MC_P < <(mc_pats 2 4)
    check mcast-n4 180 0 "${MC_P[@]}" \
        "rmp\[1\]: verbs: mcast: joined group 239\.[0-9.]+ \(MGID ::ffff:239\.[0-9.]+\) on rxe0" -- \
        bash -c 'mcast_job 2 4 0 "$@"' mcast_job "${MC_ARGS[@]}"
    # netem dropped some of rmp-c2's datagrams, and rmp-c1's ranks (even ranks) repaired them
    check mcast-netem-n4 240 0 "${MC_P[@]}" "mcast: rmp-c2: qdisc netem .* loss 5%" \
        "mcast: rmp-c2:  Sent [0-9]+ bytes [0-9]+ pkt \(dropped [1-9]" \
        "rmp\[[02]\]: verbs: mcast: .* repaired by [1-9][0-9]* RDMA READs" -- \
        bash -c 'mcast_netem "$@"' mcast_netem "${MC_ARGS[@]}"
fi
if [ "${#MC_HOSTS[@]}" -ge 3 ]; then
    mapfile -t MC_P < <(mc_pats 3 6)
    check mcast-n6-nodes3 240 0 "${MC_P[@]}" -- \
        bash -c 'mcast_job 3 6 0.01 "$@"' mcast_job 1 985 64k
fi
unset MC_HOSTS MC_ARGS MC_P
