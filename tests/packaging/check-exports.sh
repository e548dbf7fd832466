#!/bin/sh
# check-exports.sh CC LIBDIR HEADER — librmp.so and librmp.a export exactly the functions the
# public header declares: no internal name leaks, no API function is missing. The declared set
# comes from the preprocessed header (no comments, no macros), so it follows rmp.h as it grows.
set -eu
cc=$1
libdir=$2
header=$3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Functions: "rmp_x(" outside static (inline) definitions; data: "extern ... name;".
# shellcheck disable=SC2086 # CC may carry flags
$cc -E -P -x c "$header" >"$tmp/header.i"
{
    grep -v '\bstatic\b' "$tmp/header.i" | grep -oE '\brmp_[A-Za-z0-9_]+ *\(' | sed 's/ *($//' ||
        true
    tr '\n' ' ' <"$tmp/header.i" | grep -oE '\bextern [^;(){}]*;' |
        sed -E 's/ *(\[[^]]*\])? *;$//; s/.*[^A-Za-z0-9_]//' | grep -E '^(rmp_|RMP_)' || true
} | sort -u >"$tmp/declared"
if [ ! -s "$tmp/declared" ]; then
    echo "check-exports: found no declaration in $header" >&2
    exit 1
fi
nm -D --defined-only "$libdir/librmp.so" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/so"
nm -g --defined-only "$libdir/librmp.a" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/a"

status=0
for lib in so a; do
    extra=$(comm -13 "$tmp/declared" "$tmp/$lib" | tr '\n' ' ')
    missing=$(comm -23 "$tmp/declared" "$tmp/$lib" | tr '\n' ' ')
    if [ -n "$extra" ]; then
        echo "librmp.$lib exports names $header does not declare: $extra" >&2
        status=1
    fi
    if [ -n "$missing" ]; then
        echo "librmp.$lib does not export what $header declares: $missing" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] || exit 1
echo "exports: librmp.so $(wc -l <"$tmp/so"), librmp.a $(wc -l <"$tmp/a")," \
    "declared $(wc -l <"$tmp/declared")"
