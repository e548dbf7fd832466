# suite-lib.sh — sourced by the suites that run cases one line each (tests/vm/run-verbs-suite,
# tests/cluster/run-cases). The caller sets LOGS (a directory), FILTER (an extended regex on
# case names, or empty for all), PASSED and FAILED (counters), and VMB for build_vm_progs.
#   check NAME TIMEOUT WANT_RC 'regex' [more regexes] -- CMD...
#       runs CMD under `timeout TIMEOUT` with its output in $LOGS/NAME.log; PASS when it exits
#       WANT_RC in time, every regex matches a line and no line starts with FAIL; prints
#       "PASS NAME (Xs)" or "FAIL NAME (Xs): why; log ..." and the log's tail
#   selected NAME       whether FILTER selects NAME
#   elapsed T0          seconds since T0 (date +%s.%N)
#   build_vm_progs      compiles tests/vm/verbs_*.c into $VMB (after make all tests)

elapsed() { echo "$(date +%s.%N) - $1" | bc; }
selected() { [ -z "$FILTER" ] || [[ $1 =~ $FILTER ]]; }

# check NAME TIMEOUT WANT_RC 'regex that must appear in the output' [more regexes] -- CMD...
check() {
    local name=$1 tmo=$2 want=$3
    shift 3
    local pats=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    selected "$name" || return 0
    local log=$LOGS/$name.log t0 rc why="" p
    t0=$(date +%s.%N)
    timeout -k 5 "$tmo" "$@" >"$log" 2>&1
    rc=$?
    local t
    t=$(printf '%.1f' "$(elapsed "$t0")")
    if [ "$(printf '%.0f' "$t")" -ge "$tmo" ]; then
        why="timed out after ${tmo}s (exit $rc)"
    elif [ "$rc" != "$want" ]; then
        why="exit $rc, expected $want"
    else
        for p in "${pats[@]}"; do
            grep -Eq -- "$p" "$log" || { why="no line matching /$p/"; break; }
        done
        [ -z "$why" ] && grep -q '^FAIL' "$log" && why="$(grep -m1 '^FAIL' "$log")"
    fi
    if [ -z "$why" ]; then
        echo "PASS $name (${t}s)"
        PASSED=$((PASSED + 1))
    else
        echo "FAIL $name (${t}s): $why; log $log:"
        tail -n 12 "$log" | sed 's/^/    /'
        FAILED=$((FAILED + 1))
    fi
}

build_vm_progs() {
    mkdir -p "$VMB"
    # CFLAGS/LDFLAGS from the environment come last (verbs-coverage builds with --coverage).
    local cflags="-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Iinclude ${CFLAGS:-} ${LDFLAGS:-}"
    local libs="$(pkg-config --libs pmix 2>/dev/null || echo -lpmix) -libverbs -lrdmacm -lpthread -lm"
    local f b
    for f in tests/vm/verbs_*.c; do
        b=$(basename "$f" .c)
        if [ "$b" = verbs_smoke ]; then
            cc $cflags -o "$VMB/$b" "$f" -libverbs || exit 2
        else
            # shellcheck disable=SC2086
            cc $cflags -o "$VMB/$b" "$f" lib/librmp.a $libs || exit 2
        fi
    done
}
