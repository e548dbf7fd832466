#!/usr/bin/awk -f
# compare-tables.awk — bench/compare's text tables from its runs: a headline table (the numbers
# one quotes: latency 8 B, bw at the largest size, allreduce smallest and largest, barrier),
# then for every benchmark and rank count one row per size with each backend's average and the
# ratio rmp / best peer (the peers: every backend that is not an rmp variant), and rmp-mpi / rmp
# when both ran (what the MPI layer costs). Input: status.txt ("backend n run status" per run),
# then all.csv. Variables: backends ("rmp rmp-mpi openmpi mpich", those that ran), ns ("2 4 8").
# The overlap benchmark (bench/compare --overlap) has its own headline. POSIX awk (mawk).

function higher_is_better(bench) { return unit[bench] != "us" }

function human(bytes) {
    if (bytes >= 1048576 && bytes % 1048576 == 0) return (bytes / 1048576) " MiB"
    if (bytes >= 1024 && bytes % 1024 == 0) return (bytes / 1024) " KiB"
    return bytes " B"
}

# The run a benchmark belonged to (the collectives ran together, so did the overlap
# benchmarks at an even rank count).
function run_of(bench, b, n) {
    if (bench ~ /^overlap-/)
        return (b SUBSEP n SUBSEP "overlap") in status ? "overlap" : "overlap-iallreduce"
    return bench ~ /^(latency|bw|bibw|msgrate)$/ || bench ~ /-(lock|fence|flush|pscw)$/ ? \
        bench : "collectives"
}

# A backend's cell: its value, or why there is none.
function cell(b, bench, n, bytes,    k, st) {
    k = b SUBSEP bench SUBSEP n SUBSEP bytes
    if (k in val) return sprintf("%.2f%s", val[k], bad[k] ? "!" : "")
    st = status[b SUBSEP n SUBSEP run_of(bench, b, n)]
    if (st == "timeout" || st ~ /^failed/) return st
    return "-"
}

# rmp / best peer for one size, flagged with * when rmp is more than 1.5x worse; "-" if none.
function ratio(bench, n, bytes,    i, k, best, have, r, v) {
    k = "rmp" SUBSEP bench SUBSEP n SUBSEP bytes
    if (!(k in val)) return "-"
    have = 0
    for (i = 1; i <= nb; i++) {
        if (blist[i] ~ /^rmp/) continue
        v = blist[i] SUBSEP bench SUBSEP n SUBSEP bytes
        if (!(v in val)) continue
        if (!have || (higher_is_better(bench) ? val[v] > best : val[v] < best)) best = val[v]
        have = 1
    }
    if (!have || best == 0) return "-"
    r = val[k] / best
    worse = higher_is_better(bench) ? r < 1 / 1.5 : r > 1.5
    return sprintf("%.2f%s", r, worse ? " *" : "")
}

# rmp-mpi / rmp for one size ("" when rmp-mpi did not run, "-" without both values).
function mpi_ratio(bench, n, bytes,    k, m) {
    if (!has_mpi) return ""
    k = "rmp" SUBSEP bench SUBSEP n SUBSEP bytes
    m = "rmp-mpi" SUBSEP bench SUBSEP n SUBSEP bytes
    if (!(k in val) || !(m in val) || val[k] == 0) return sprintf(" %12s", "-")
    return sprintf(" %12.2f", val[m] / val[k])
}

function header_row(first, label,    i, s) {
    s = sprintf("%-28s", first)
    for (i = 1; i <= nb; i++) s = s sprintf(" %12s", blist[i])
    return s sprintf("  %-9s", label) (has_mpi ? sprintf(" %12s", "rmp-mpi/rmp") : "")
}

# Sizes of (bench, n) in ascending order into sorted[1..m]; returns m.
function sizes_of(bench, n,    m, i, j, t, key) {
    m = 0
    for (key in seen) {
        split(key, f, SUBSEP)
        if (f[1] == bench && f[2] == n) sorted[++m] = f[3] + 0
    }
    for (i = 2; i <= m; i++) {
        t = sorted[i]
        for (j = i - 1; j >= 1 && sorted[j] > t; j--) sorted[j + 1] = sorted[j]
        sorted[j + 1] = t
    }
    return m
}

function headline(bench, n, which, label,    m, bytes, s, i) {
    m = sizes_of(bench, n)
    if (m == 0) return
    if (which == "first") bytes = sorted[1]
    else if (which == "last") bytes = sorted[m]
    else {
        bytes = -1
        for (i = 1; i <= m; i++) if (sorted[i] == which) bytes = which
        if (bytes < 0) return
    }
    label = bench (unit_sized[bench] ? " " human(bytes) : "") " (" unit[bench] ")"
    s = sprintf("%-30s %3d", label, n)
    for (i = 1; i <= nb; i++) s = s sprintf(" %12s", cell(blist[i], bench, n, bytes))
    print s sprintf("  %-9s", ratio(bench, n, bytes)) mpi_ratio(bench, n, bytes)
}

FNR == 1 { file++ }
file == 1 { status[$1 SUBSEP $2 SUBSEP $3] = $4; next }
file == 2 && FNR == 1 { FS = ","; next }
file == 2 {
    # backend,bench,ranks,bytes,iters,avg,min,max,unit,check
    split($0, c, ",")
    k = c[1] SUBSEP c[2] SUBSEP c[3] SUBSEP c[4]
    val[k] = c[6] + 0
    bad[k] = c[10] == "FAIL"
    unit[c[2]] = c[9]
    unit_sized[c[2]] = c[2] != "barrier"
    seen[c[2] SUBSEP c[3] SUBSEP c[4]] = 1
}

END {
    nb = split(backends, blist, " ")
    for (i = 1; i <= nb; i++) has_mpi = has_mpi || blist[i] == "rmp-mpi"
    nn = split(ns, nlist, " ")
    order = "latency bw bibw msgrate barrier bcast reduce allreduce allgather alltoall " \
            "overlap-iallreduce overlap-iallreduce-comm overlap-p2p overlap-p2p-comm " \
            "put-flush get-flush acc-flush get-acc-flush fop-flush cas-flush put-bw-flush " \
            "get-bw-flush put-lock put-fence get-lock get-fence " \
            "io-write io-read io-strided-write io-2d-write-all io-2d-read-all io-3d-write-all " \
            "io-3d-read-all io-write-ordered"
    nbench = split(order, benches, " ")

    if (("overlap-iallreduce" in unit)) {
        print "== Overlap (OSU's method): % of the operation hidden behind a computation as long"
        print "   as the operation alone (higher is better); ratio = rmp / best peer"
        print header_row(sprintf("%-30s %3s", "benchmark", "n"), "rmp/best")
        for (j = 1; j <= nn; j++) {
            for (o = 1; o <= 2; o++) {
                ob = o == 1 ? "overlap-iallreduce" : "overlap-p2p"
                headline(ob, nlist[j], 65536)
                headline(ob, nlist[j], 1048576)
                if (sizes_of(ob, nlist[j]) > 0 && sorted[sizes_of(ob, nlist[j])] > 1048576)
                    headline(ob, nlist[j], "last")
            }
        }
        print ""
    } else {
        print "== Headline: average over ranks (us: lower is better; MB/s, msg/s: higher is better)"
        print "   ratio = rmp / best peer; * = rmp more than 1.5x worse; ! = data check failed"
        print header_row(sprintf("%-30s %3s", "benchmark", "n"), "rmp/best")
        for (j = 1; j <= nn; j++) {
            n = nlist[j]
            headline("latency", n, 8)
            headline("bw", n, "last")
            headline("bibw", n, "last")
            headline("msgrate", n, 8)
            headline("barrier", n, "first")
            headline("allreduce", n, 4)
            headline("allreduce", n, "last")
            headline("bcast", n, "last")
            headline("alltoall", n, "last")
            split("put-flush get-flush acc-flush get-acc-flush", osu, " ")
            split("8 1024 65536 1048576", osz, " ")
            for (o = 1; o <= 4; o++) # OSU's one-sided latencies at 8 B, 1 KiB, 64 KiB, 1 MiB
                for (z = 1; z <= 4; z++)
                    headline(osu[o], n, osz[z] + 0)
            headline("fop-flush", n, 8)
            headline("cas-flush", n, 8)
            split("put-bw-flush get-bw-flush", osubw, " ")
            for (o = 1; o <= 2; o++) # OSU's put and get bandwidth
                for (z = 1; z <= 4; z += (z == 1 ? 2 : 1))
                    headline(osubw[o], n, osz[z] + 0)
            split("put-lock put-fence get-lock get-fence", locks, " ")
            for (o = 1; o <= 4; o++)
                headline(locks[o], n, 8)
            for (o = 1; o <= nbench; o++) # the MPI-IO rows: 1 MiB and the largest per rank
                if (benches[o] ~ /^io-/) {
                    headline(benches[o], n, 1048576)
                    headline(benches[o], n, "last")
                }
        }
        print ""
    }
    for (i = 1; i <= nbench; i++) {
        bench = benches[i]
        for (j = 1; j <= nn; j++) {
            n = nlist[j]
            m = sizes_of(bench, n)
            if (m == 0) continue
            printf "== %s, %d ranks: %s %s; ratio = rmp / best peer\n", bench, n, unit[bench],
                higher_is_better(bench) ? "(higher is better)" : "(lower is better)"
            print header_row(sprintf("%28s", "bytes"), "rmp/best")
            for (s = 1; s <= m; s++) {
                line = sprintf("%28d", sorted[s])
                for (b = 1; b <= nb; b++)
                    line = line sprintf(" %12s", cell(blist[b], bench, n, sorted[s]))
                print line sprintf("  %-9s", ratio(bench, n, sorted[s])) \
                    mpi_ratio(bench, n, sorted[s])
            }
            print ""
        }
    }
}
