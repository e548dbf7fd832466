# suite-faults.sh — failures injected into the real driver, sourced by run-verbs-suite (which
# defines check, MRUN, PROGS, VMB). Each failure must give one line naming the rank, the peer,
# the verb and the fix, end the job (never hang: every case has a timeout) and leave nothing
# behind (no process, no /dev/shm segment: checked after the last case). The injections are
# RMP_VERBS_FAULT's (runtime/transport/verbs/verbs_fault.c), on one rank (@R); the rest is the
# kernel's own doing: `rdma link delete`, the RNR NAKs of a flooded SRQ (flood-n4) and the port
# going down (port-down-*, ibv-async-events-n3) are in run-verbs-suite itself.
#   faults_early   the cases that leave rxe0 as they found it
#   faults_last    rxe0 deleted under an idle job (before vm-nodevice, which deletes it too)

faults_early() {
    local fp=$VMB/verbs_fault
    # The QP to rank 1 pushed into the error state under traffic, right after a send: that
    # send and the next come back flushed, rank 1's sends to rank 0 exhaust their retries.
    check fault-qp-err-n2 90 3 \
        "rmp\[0\]: verbs: RMP_VERBS_FAULT: QP 0x[0-9a-f]+ to rank 1 moved to the error state after send 300: done" \
        "rmp\[0\]: rank 1 failed: send to rank 1 on rxe0: Work Request Flushed Error; fix: the QP had gone to the error state" \
        "verbs_fault: rank [01]: rmp_[a-z]+ .*with rank [01]: peer process failed" -- \
        env RMP_TRANSPORT=verbs RMP_VERBS_FAULT=qp-err:300@0 "$MRUN" -n 2 "$fp" 1000 64
    # A rendezvous key revoked (the send buffer deregistered) before the receiver's RDMA READ:
    # the reader's READ fails with a remote access error, named with its fix.
    check fault-revoke-n2 90 3 \
        "rmp\[0\]: verbs: RMP_VERBS_FAULT: rendezvous key 0x[0-9a-f]+ revoked" \
        "rmp\[1\]: rank 0 failed: RDMA READ from rank 0 on rxe0: remote access error; fix: the peer's memory key is no longer valid" \
        "verbs_fault: rank 1: rmp_recv with rank 0: peer process failed" -- \
        env RMP_TRANSPORT=verbs RMP_VERBS_FAULT=revoke:1@0 "$MRUN" -n 2 "$fp" 1 1048576
    # A completion queue too small for the traffic (rank 1 sleeps while 400 sends arrive).
    check fault-cq-overrun-n2 90 3 \
        "rmp\[1\]: verbs: RMP_VERBS_FAULT: completion queue of 130 entries" \
        "rmp\[1\]: verbs: the completion queue on rxe0 \([0-9]+ entries\) overran: completions were lost \(RMP_VERBS_FAULT=cq\)" -- \
        env RMP_TRANSPORT=verbs RMP_VERBS_FAULT=cq:130@1 "$MRUN" -n 2 "$fp" 400 64 2000
    # rdmacm: the peer at an address of its subnet where nobody answers. The address
    # resolution asks ARP and gives up after rmp's resolve timeout (5 s): ADDR_ERROR, -110.
    # (rxe0's netdev in the VM is a dummy, NOARP: there the address resolved at once and the
    # connect request waited out the kernel CM's fixed retries, ~80 s, for the same line from
    # the same code path, cm_fail; so ARP is turned on for this case.)
    check fault-cm-unroutable-n2 90 3 \
        "rmp\[0\]: verbs: RMP_VERBS_FAULT: rank 1 resolved at 10\.42\.0\.253, where nobody answers" \
        "rmp\[0\]: rank 1 failed: rdmacm connection to rank 1 \([0-9.:]+\) on rxe0: RDMA_CM_EVENT_ADDR_ERROR \(status -110\); fix: that address must be reachable" \
        "verbs_fault: rank 0: rmp_wait \(send\) with rank 1: peer process failed" -- \
        bash -c 'arp_job "$@"' arp_job env RMP_CM=rdmacm RMP_TRANSPORT=verbs \
        RMP_VERBS_FAULT=cm-unroutable@0 "$MRUN" -n 2 "$fp" 10 64
}

# CMD with ARP on rxe0's netdev (the VM's dummy has none), then as it was: an address nobody
# answers then fails its resolution instead of resolving to nobody.
arp_job() { # CMD...
    local dev=${RXE_NETDEV:-rmp0} rc noarp=0
    [ "${RXE_VM:-}" = 1 ] && ip link show "$dev" | grep -q NOARP && noarp=1
    [ $noarp = 1 ] && { ip link set "$dev" arp on || return 99; }
    "$@"
    rc=$?
    [ $noarp = 1 ] && { ip neigh flush dev "$dev"; ip link set "$dev" arp off; }
    return $rc
}
export -f arp_job

# rxe0 deleted while every rank of a job is idle (rank 0 polling, the others asleep in a
# receive). What rxe does (Debian 6.1): no event reaches the processes that have the device
# open, their QPs keep working, and `rdma link delete` waits until they close it. So the job
# survives, its traffic after the delete is byte-exact, and the delete returns once the job
# has ended. rxe0 is added back for the cases after it.
dev_delete_job() { # LOG GOFILE CMD...
    local log=$1 go=$2 i
    shift 2
    rm -f "$go"
    "$@" &
    local pid=$!
    for i in $(seq 300); do grep -q "verbs_events: ready" "$log" && break; sleep 0.1; done
    (rdma link delete rxe0; echo "rdma link delete: exit $?; devices now: [$(ls /sys/class/infiniband)]") &
    local del=$!
    sleep 2
    touch "$go"
    wait $pid
    local rc=$?
    echo "job ended: exit $rc"
    wait $del
    rdma link add rxe0 type rxe netdev "${RXE_NETDEV:-rmp0}"
    echo "rdma link add: exit $?; devices now: [$(ls /sys/class/infiniband)]"
    return $rc
}
export -f dev_delete_job

faults_last() {
    [ "${RXE_VM:-}" = 1 ] || return 0
    check fault-device-removed-idle-n3 120 0 "job ended: exit 0" \
        "rdma link delete: exit 0; devices now: \[\]" \
        "verbs_events: rank 0: traffic after the link flap: ok" \
        "verbs_events: rank 2: traffic after the link flap: ok" \
        "rdma link add: exit 0; devices now: \[rxe0\]" -- \
        bash -c 'dev_delete_job "$@"' dev_delete_job "$LOGS/fault-device-removed-idle-n3.log" \
        /tmp/rmp-go-del env RMP_TRANSPORT=verbs "$MRUN" -n 3 "$VMB/verbs_events" /tmp/rmp-go-del
}
