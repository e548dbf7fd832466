#!/bin/sh
# leftovers.sh — the last step of make check: fails (exit 1, listing them) if a job left
# something behind: /dev/shm/rmp.* segments, mrun temp dirs (mrun.*) or test-harness temp dirs
# (rmp-test.*) in ${TMPDIR:-/tmp}, or a running process started from this tree's mrun, test
# programs or examples. Processes get a short grace period to finish dying.
#   tests/leftovers.sh mark   remember what is there now (build/leftovers.mark): a later check
#                             then ignores it, so debris of earlier jobs (a developer's killed
#                             mrun) does not fail this run
#   tests/leftovers.sh        check
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=${TMPDIR:-/tmp}
mark="$root/build/leftovers.mark"

find_leftovers() {
    for f in /dev/shm/rmp.* "$tmp"/mrun.* "$tmp"/rmp-test.* "$tmp"/rmp-"$(id -u)"/*; do
        [ -e "$f" ] && echo "file: $f"
    done
    for p in /proc/[0-9]*; do
        exe=$(readlink "$p/exe" 2>/dev/null) || continue
        case "$exe" in
        "$root"/bin/mrun | "$root"/build/*/bin/mrun | "$root"/build/*/tests/progs/* | \
            "$root"/bin/examples/* | "$root"/build/*/bin/examples/*)
            echo "process: ${p#/proc/} $exe"
            ;;
        esac
    done
}

# What is found now, minus what the mark recorded.
new_leftovers() {
    if [ -f "$mark" ]; then
        find_leftovers | grep -vxF -f "$mark" || true
    else
        find_leftovers
    fi
}

if [ "${1:-}" = mark ]; then
    mkdir -p "$(dirname "$mark")"
    find_leftovers >"$mark"
    if [ -s "$mark" ]; then
        echo "leftovers.sh: ignoring what earlier jobs left:" >&2
        sed 's/^/  /' "$mark" >&2
    fi
    exit 0
fi

for attempt in 1 2 3 4; do
    found=$(new_leftovers)
    [ -z "$found" ] && exit 0
    [ "$attempt" -lt 4 ] && sleep 0.5
done
echo "leftovers.sh: the tests left these behind:" >&2
echo "$found" | sed 's/^/  /' >&2
exit 1
