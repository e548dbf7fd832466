# slurm.sh — rmp started by Slurm across the cluster's kernels: `srun --mpi=pmix -N 2`, and Open
# MPI's mpirun inside a Slurm allocation (sourced by tests/cluster/run-cases on rmp-c1, after
# tests/cluster/node-up has Slurm up on every node; see run-cases for what a case file gets).
# Jobs span the first two nodes (one node when the cluster has one: the one-VM trial), with
# ranks placed cyclically (-m cyclic: rank 0 on rmp-c1, rank 1 on rmp-c2, ...) so that the
# pairs and rings of the programs cross the wire; -O because n can exceed the vCPUs.
# - slurm-hello-n8: every rank, started by Slurm, names its node (SLURMD_NODENAME) and its
#   Slurm task id, which must be its rmp rank: two hostnames in the log; and no rank is left
#   in rmp_finalize after the others exit (a fence without data collection is no barrier
#   across nodes under Slurm: bootstrap.c's boot_barrier);
# - slurm-wiring-modex / -rdmacm: examples/allreduce across hosts with RMP_VERBOSE, whose QP
#   lines name the peer's GID; the case reads each node's GID from its sysfs and requires QPs
#   from rmp-c1's GID to rmp-c2's and back (tests/progs/coll's every type, op and count are
#   the single-node suites' job: 4 minutes here);
# - slurm-pingpong-n2: eager and rendezvous (RDMA READ) sizes 0..1 MiB byte-exact across the
#   wire, the READs counted; slurm-sizes-n2: up to 17 MiB + 5 at odd offsets, above max_msg_sz
#   (one get in several READs); slurm-storm-n4: random sizes and tags, wildcards;
# - slurm-regcache-n2: freed and reallocated buffers carry new data with the cache on;
# - slurm-flood-srq-n4: 3 senders (2 on the other host) overrun rank 0's shared receive queue,
#   which grows; nothing lost or reordered;
# - slurm-atomics-n4: barrier and allreduce on RDMA atomics across hosts (RMP_COLL_OFFLOAD=on);
# - slurm-mpirun-salloc: Open MPI's mpirun inside `salloc -N 2` launches its daemons through
#   Slurm (plm slurm, forced: never ssh) and runs rmp programs on both nodes;
# - slurm-spawn-refused-n2: MPI_Comm_spawn under srun asks Slurm's PMIx server (PMIx_Spawn),
#   which refuses (PMIX_ERR_NOT_SUPPORTED, -47, Slurm 22.05): MPI_ERR_SPAWN on both ranks (across the
#   two kernels), the line naming Slurm's server and PMIx's status, and no hang.
# Every job is bounded by its case's timeout and by Slurm (KillOnBadExit, WaitTime in
# node-up's slurm.conf): a rank that fails ends the job.

read -r -a SL_HOSTS <<<"$CLUSTER_HOSTS"
SL_N=2
[ "${#SL_HOSTS[@]}" -ge 2 ] || SL_N=1
SL_H1=${SL_HOSTS[0]}
SL_H2=${SL_HOSTS[SL_N - 1]}
# a regex alternation of the job's hosts, and one pattern per host for "a rank ran there"
SL_ON=()
for h in "${SL_HOSTS[@]:0:SL_N}"; do
    SL_ON+=("^rank [0-9]+ of [0-9]+: (SLURMD_NODENAME|PMIX_HOSTNAME)=$h\$")
done
SRUN="srun --mpi=pmix -O -N $SL_N -m cyclic"
export SL_N SL_H1 SL_H2 SRUN PROGS VMB

# N: Slurm's task id of every rank is its rmp rank, each rank names its node.
slurm_hello() {
    local n=$1 r bad=0 out
    out=$($SRUN -n "$n" "$PROGS/env" SLURMD_NODENAME SLURM_PROCID 2>&1)
    echo "$out"
    for r in $(seq 0 $((n - 1))); do
        echo "$out" | grep -qx "rank $r of $n: SLURM_PROCID=$r" ||
            { echo "FAIL: rank $r: no line 'rank $r of $n: SLURM_PROCID=$r'"; bad=1; }
    done
    echo "hello: $(echo "$out" | sed -n 's/^rank [0-9]* of [0-9]*: SLURMD_NODENAME=//p' | sort -u |
        tr '\n' ' ')"
    # Every rank leaves rmp_finalize together: none is ended by Slurm's WaitTime (60 s after
    # the first task's exit) while still waiting in it for a rank that already left.
    if echo "$out" | grep -q "First task exited"; then
        echo "FAIL: ranks were still in rmp_finalize after the first task exited (Slurm ended them)"
        bad=1
    fi
    return $bad
}
export -f slurm_hello
check slurm-hello-n8 120 0 "${SL_ON[@]}" "^rank 7 of 8: SLURMD_NODENAME=" -- bash -c 'slurm_hello 8'

# ---- the verbs wiring, both ways: QPs to the other host's GID -----------------------------------
# A sysfs GID (0000:...:ffff:0a2b:0002) as rmp prints it (::ffff:10.43.0.2).
sl_gid() {
    local g=$1 h
    case $g in
        0000:0000:0000:0000:0000:ffff:*)
            h=${g#0000:0000:0000:0000:0000:ffff:}
            h=${h/:/}
            printf '::ffff:%d.%d.%d.%d\n' "0x${h:0:2}" "0x${h:2:2}" "0x${h:4:2}" "0x${h:6:2}" ;;
        *) echo "$g" ;;
    esac
}
# WIRING (modex|rdmacm): a job with RMP_VERBOSE, then which QPs went from which host's GID to
# which: each rank's own GID is on its device line, the peer's on each QP line.
slurm_wiring() {
    local cm=$1 g1 g2 out
    g1=$(srun -N1 -n1 -w "$SL_H1" sh -c 'cat /sys/class/infiniband/$RXE_DEV/ports/1/gids/$RXE_GID_IDX')
    g2=$(srun -N1 -n1 -w "$SL_H2" sh -c 'cat /sys/class/infiniband/$RXE_DEV/ports/1/gids/$RXE_GID_IDX')
    [ -n "$g1" ] && [ -n "$g2" ] || { echo "FAIL: no GID read from $SL_H1 ($g1) or $SL_H2 ($g2)"; return 1; }
    g1=$(sl_gid "$g1") g2=$(sl_gid "$g2")
    echo "wiring: $SL_H1 has GID $g1, $SL_H2 has GID $g2 (sysfs, GID index $RXE_GID_IDX)"
    [ "$SL_N" = 1 ] || [ "$g1" != "$g2" ] || { echo "FAIL: both nodes have GID $g1"; return 1; }
    out=$(if [ "$cm" = rdmacm ]; then export RMP_CM=rdmacm; fi
          RMP_VERBOSE=1 $SRUN -n 4 bin/examples/allreduce 2>&1)
    local rc=$?
    echo "$out"
    echo "$out" | awk -v g1="$g1" -v g2="$g2" -v h1="$SL_H1" -v h2="$SL_H2" '
        match($0, /^rmp\[[0-9]+\]: verbs: device .* GID [^,]+,/) {
            r = substr($0, 5, index($0, "]") - 5)
            s = $0; sub(/.* GID /, "", s); sub(/,.*/, "", s); gid[r] = s
        }
        match($0, /^rmp\[[0-9]+\]: verbs: rank [0-9]+: .* at GID [^ ,]+/) {
            r = substr($0, 5, index($0, "]") - 5)
            s = $0; sub(/.* at GID /, "", s); sub(/[ ,].*/, "", s)
            qp[++n] = r " " s
        }
        END {
            for (i = 1; i <= n; i++) {
                split(qp[i], f, " ")
                if (gid[f[1]] == g1 && f[2] == g2) a++
                if (gid[f[1]] == g2 && f[2] == g1) b++
            }
            printf "wiring: %d QPs from %s (GID %s) to %s (GID %s)\n", a, h1, g1, h2, g2
            printf "wiring: %d QPs from %s (GID %s) to %s (GID %s)\n", b, h2, g2, h1, g1
        }'
    return $rc
}
export -f sl_gid slurm_wiring
check slurm-wiring-modex 120 0 "^allreduce OK" "verbs: wiring by modex: [0-9]+ RC QPs created" \
    "^wiring: [1-9][0-9]* QPs from $SL_H1 \(GID [^)]+\) to $SL_H2 " \
    "^wiring: [1-9][0-9]* QPs from $SL_H2 \(GID [^)]+\) to $SL_H1 " -- bash -c 'slurm_wiring modex'
check slurm-wiring-rdmacm 120 0 "^allreduce OK" "verbs: wiring by rdmacm: listening on" \
    "verbs: rank [0-9]+: connected by rdmacm \(I connected\), QP 0x[0-9a-f]+ <-> 0x[0-9a-f]+ at GID" \
    "^wiring: [1-9][0-9]* QPs from $SL_H1 \(GID [^)]+\) to $SL_H2 " \
    "^wiring: [1-9][0-9]* QPs from $SL_H2 \(GID [^)]+\) to $SL_H1 " -- bash -c 'slurm_wiring rdmacm'

# ---- data across the wire: eager, rendezvous by RDMA READ, SRQ, registration cache --------------
# Without RMP_TRANSPORT: verbs between the hosts, shared memory within one (rank 0's peer in
# each case is on the other host).
check slurm-pingpong-n2 240 0 "^pingpong: OK n=2" \
    "rmp\[0\]: rank 1 \(other node\): verbs" \
    "rmp\[[01]\]: verbs: used .* [1-9][0-9]* arrivals through the SRQ" \
    "rmp\[[01]\]: verbs: used .* [1-9][0-9]* gets in [1-9][0-9]* RDMA READs" -- \
    env RMP_VERBOSE=1 $SRUN -n 2 "$PROGS/pingpong" 0 1m
check slurm-sizes-n2 240 0 "verbs_sizes: 2 ranks, .*: ok" \
    "verbs: used .* gets in [0-9]+ RDMA READs, the largest 17825797 bytes in 18 READs" -- \
    env RMP_VERBOSE=1 $SRUN -n 2 "$VMB/verbs_sizes"
check slurm-storm-n4 240 0 "^storm: OK n=4" -- $SRUN -n 4 "$PROGS/storm" 3000
check slurm-regcache-n2 240 0 "rank 1: 16 buffers freed and reallocated .*: ok" "cache on: 1 MiB" -- \
    env RMP_REG_CACHE=1 $SRUN -n 2 "$VMB/verbs_regcache" 10
# Verbs for every peer, so that all 3 senders hit rank 0's SRQ (2 of them from the other host).
check slurm-flood-srq-n4 240 0 "received 6000 messages from 3 senders in order: ok" \
    "rmp\[0\]: verbs: SRQ ran low \(arrivals outran polling\): grown to 512 buffers" -- \
    env RMP_TRANSPORT=verbs RMP_VERBOSE=1 $SRUN -n 4 "$VMB/verbs_flood" 2000 1000

# ---- collectives on RDMA atomics across hosts ---------------------------------------------------
check slurm-atomics-n4 240 0 "rank 0: 400 allreduces .* 4 ranks, .*: ok" \
    "rmp\[0\]: offload: allreduce on a communicator of 4 \(context 0\) runs on the adapter \(verbs\)" \
    "rmp\[2\]: offload: barrier on a communicator of 4 \(context 0\) runs on the adapter \(verbs\)" -- \
    env RMP_COLL_OFFLOAD=on RMP_VERBOSE=1 $SRUN -n 4 "$VMB/verbs_atomic" check 400

# ---- Open MPI's mpirun inside a Slurm allocation ------------------------------------------------
# salloc gives mpirun the allocation; plm slurm (forced) starts one orted per node with srun
# (no ssh: the nodes have no sshd), and the orteds' PMIx servers start the rmp ranks. Each
# rank names its node by PMIX_HOSTNAME (Open MPI's; mpirun's own node has no Slurm step).
slurm_mpirun() {
    salloc -N "$SL_N" -n 4 -O env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        OMPI_MCA_plm=slurm OMPI_MCA_plm_base_verbose=5 sh -c '
        mpirun -n 4 --map-by node "$PROGS/env" PMIX_HOSTNAME SLURM_JOB_ID &&
        mpirun -n 4 --map-by node bin/examples/allreduce'
}
export -f slurm_mpirun
check slurm-mpirun-salloc 180 0 "${SL_ON[@]}" "^allreduce OK" "plm:slurm: final top-level argv:" \
    "srun .*orted" -- bash -c slurm_mpirun

# ---- MPI_Comm_spawn under srun ---------------------------------------------------------------
check slurm-spawn-refused-n2 120 0 "^mpi_spawn: rank 0 OK" "^mpi_spawn: rank 1 OK" \
    "rmp\[0\]: rmp_comm_spawn .*/mpi_spawn: Slurm's PMIx server \(srun --mpi=pmix\) refused PMIx_Spawn: NOT-SUPPORTED \(-47\)$" -- \
    $SRUN -n 2 build/release/tests/mpi/mpi_spawn refused

unset SL_HOSTS SL_ON
