#!/usr/bin/env bash
# compare-plots.sh OUT "BACKENDS" "NS" — bench/compare's PNG plots, drawn with gnuplot from
# OUT/all.csv: latency and bandwidth against message size (2 ranks), message rate, and per rank
# count one page of collectives (time per call against size; barrier against rank count), and
# the one-sided runs (2 ranks) on a page of their own; for bench/compare --overlap, overlap %
# against size instead. Pages whose benchmarks did not run (bench/compare --rma) are left out.
set -u -o pipefail
OUT=$1
BACKENDS=$2
NS=$3
DAT=$OUT/plot

# data BACKEND BENCH N: "bytes avg" rows of one run into a file; prints its path if not empty.
data() {
    local f="$DAT/$1-$2-n$3.dat"
    awk -F, -v b="$1" -v bench="$2" -v n="$3" '$1 == b && $2 == bench && $3 == n {print $4, $6}' \
        "$OUT/all.csv" >"$f"
    [ -s "$f" ] && echo "$f"
}

# plot_cmd BENCH N: the gnuplot "plot" clause with one line per backend that has data.
plot_cmd() {
    local bench=$1 n=$2 sep="" cmd="" f b
    for b in $BACKENDS; do
        f=$(data "$b" "$bench" "$n") || continue
        cmd="$cmd$sep'$f' using 1:2 with linespoints title '$b'"
        sep=", "
    done
    echo "$cmd"
}

panel() { # panel TITLE YLABEL BENCH N: one log-log panel, or an empty one without data
    local cmd
    cmd=$(plot_cmd "$3" "$4")
    echo "set title '$1'; set ylabel '$2'; set logscale xy 2; set xlabel 'bytes'"
    echo "set format x '%.0b%B'; set format y '%g'; set logscale y 10"
    if [ -n "$cmd" ]; then echo "plot $cmd"; else echo "set label 1 'no data' at graph 0.4,0.5; plot NaN notitle; unset label 1"; fi
}

barrier_panel() { # barrier time against rank count, one line per backend
    local b f sep="" cmd=""
    for b in $BACKENDS; do
        f="$DAT/$b-barrier.dat"
        awk -F, -v b="$b" '$1 == b && $2 == "barrier" {print $3, $6}' "$OUT/all.csv" |
            sort -n >"$f"
        [ -s "$f" ] || continue
        cmd="$cmd$sep'$f' using 1:2 with linespoints title '$b'"
        sep=", "
    done
    echo "set title 'barrier'; set ylabel 'us'; set xlabel 'ranks'; unset logscale; set logscale y 10"
    echo "set format x '%g'; set format y '%g'; set xtics 2"
    [ -n "$cmd" ] && echo "plot $cmd" || echo "plot NaN notitle"
    echo "set xtics autofreq"
}

overlap_panel() { # overlap_panel TITLE BENCH N: overlap % against size, linear 0..100
    local cmd
    cmd=$(plot_cmd "$2" "$3")
    echo "set title '$1'; set ylabel 'overlap %'; set xlabel 'bytes'; unset logscale"
    echo "set logscale x 2; set format x '%.0b%B'; set format y '%g'; set yrange [0:105]"
    if [ -n "$cmd" ]; then echo "plot $cmd"; else echo "set label 1 'no data' at graph 0.4,0.5; plot NaN notitle; unset label 1"; fi
    echo "set autoscale y"
}

page() { # page FILE WIDTH HEIGHT LAYOUT TITLE: starts a PNG page
    echo "set terminal pngcairo noenhanced size $2,$3 font ',9'; set output '$1'"
    echo "set grid; set key top left; set multiplot layout $4 title '$5'"
}

# bench/compare --overlap: one page per rank count, overlap % of both operations.
if grep -q '^[a-z-]*,overlap-iallreduce,' "$OUT/all.csv"; then
    for n in $NS; do
        page "$OUT/overlap-n$n.png" 1200 480 "1,2" "overlap (the OSU method), $n ranks: % hidden behind a computation as long as the operation"
        overlap_panel "iallreduce (float sum)" overlap-iallreduce "$n"
        overlap_panel "isend/irecv, rank i -> i+N/2" overlap-p2p "$n"
        echo "unset multiplot"
    done >"$DAT/plots.gp"
    exec gnuplot "$DAT/plots.gp"
fi

ran() { grep -q "^[a-z-]*,$1," "$OUT/all.csv"; } # ran BENCH: whether any backend has its rows

{
    N2=$(echo "$NS" | tr ' ' '\n' | grep -x 2 || true)
    if [ -n "$N2" ] && ran put-lock; then
        page "$OUT/rma.png" 1500 900 "2,3" "one-sided, 2 ranks (the OSU method): us per operation, MB/s"
        panel "put, lock/unlock" us put-lock 2
        panel "put, fence (half the ping-pong)" us put-fence 2
        panel "put-bw, flush (window of 64)" "MB/s" put-bw-flush 2
        panel "get, lock/unlock" us get-lock 2
        panel "get, fence (half the ping-pong)" us get-fence 2
        panel "accumulate (8-byte integer sum), flush" us acc-flush 2
        echo "unset multiplot"
    fi
    if [ -n "$N2" ] && ran latency; then
        page "$OUT/latency.png" 800 560 "1,1" "latency, 2 ranks (one-way, half a round trip)"
        panel "osu_latency" "us" latency 2
        echo "unset multiplot"
        page "$OUT/bandwidth.png" 1200 480 "1,2" "bandwidth, 2 ranks (window of 64)"
        panel "osu_bw" "MB/s" bw 2
        panel "osu_bibw" "MB/s" bibw 2
        echo "unset multiplot"
    fi
    for n in $NS; do
        ran barrier || break
        page "$OUT/collectives-n$n.png" 1500 900 "2,3" "collectives, $n ranks: us per call (avg over ranks)"
        for c in bcast reduce allreduce allgather alltoall; do panel "$c" us "$c" "$n"; done
        barrier_panel
        echo "unset multiplot"
    done
    EVEN=$(for n in $NS; do [ $((n % 2)) = 0 ] && echo "$n"; done | tr '\n' ' ')
    if [ -n "$EVEN" ] && ran msgrate; then
        count=$(echo "$EVEN" | wc -w)
        page "$OUT/msgrate.png" $((500 * count)) 450 "1,$count" "message rate per pair (msg/s)"
        for n in $EVEN; do panel "msgrate, $n ranks" "msg/s" msgrate "$n"; done
        echo "unset multiplot"
    fi
} >"$DAT/plots.gp"
gnuplot "$DAT/plots.gp"
