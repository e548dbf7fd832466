#!/bin/sh
# check-layers.sh OBJDIR — the runtime's files call each other in one direction only: for
# every pair of object files under OBJDIR/runtime (runtime/ and runtime/transport/), fail if
# each uses a symbol the other defines (a cycle of two files, which makes a file impossible
# to read, test or replace alone). Reads the symbol tables with nm; prints the pairs.
set -eu
dir=$1/runtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$dir" -name '*.o' | sort >"$tmp/objs"
if [ ! -s "$tmp/objs" ]; then
    echo "check-layers: no objects under $dir (build first)" >&2
    exit 1
fi
# "file defined-symbol" and "file used-symbol" lines
while read -r o; do
    f=${o#"$dir"/}
    nm "$o" | awk -v f="$f" '$2 ~ /^[TDBR]$/ { print f, $3 > "/dev/stderr" } $1 == "U" { print f, $2 }'
done <"$tmp/objs" >"$tmp/uses" 2>"$tmp/defs"
# file -> file edges, then pairs with both directions
awk 'NR == FNR { owner[$2] = $1; next } ($2 in owner) && owner[$2] != $1 { print $1, owner[$2] }' \
    "$tmp/defs" "$tmp/uses" | sort -u >"$tmp/edges"
awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e && p[1] < p[2]) print p[1] " <-> " p[2] } }' \
    "$tmp/edges" | sort >"$tmp/cycles"
if [ -s "$tmp/cycles" ]; then
    echo "check-layers: these files of runtime/ call each other back and forth:" >&2
    cat "$tmp/cycles" >&2
    exit 1
fi
echo "check-layers: $(wc -l <"$tmp/objs") objects, $(wc -l <"$tmp/edges") file-to-file calls, no cycle"
