#!/bin/sh
# check-exports.sh CC LIBDIR HEADER [LIB PREFIX] — libLIB.so and libLIB.a (default: librmp)
# export exactly the functions HEADER declares with PREFIX (default: rmp_): no internal name
# leaks, no API function is missing. The declared set comes from the preprocessed header (no
# comments, no macros), so it follows the header as it grows. librmp-mpi is checked with
# LIB rmp-mpi, PREFIX MPI_ and include/rmp/mpi.h: there PREFIX MPI_ means MPI_ and PMPI_ (the
# profiling interface: mpi.h includes pmpi.h, a PMPI_ for each MPI_ call), both exported.
set -eu
cc=$1
libdir=$2
header=$3
lib=${4:-rmp}
prefix=${5:-rmp_}
[ "$prefix" = MPI_ ] && prefix='P?MPI_'
uprefix=$(echo "$prefix" | tr '[:lower:]' '[:upper:]')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Functions: "rmp_x(" outside static (inline) definitions and typedefs of function types;
# data: "extern ... name;" (also rmp's own sentinels that mpi.h declares so: rmpi_status_ignore_,
# rmp_mpi_f08_status_ignore_..., the objects Fortran's MPI_STATUS_IGNORE are).
# shellcheck disable=SC2086 # CC may carry flags
$cc -E -P -x c "$header" >"$tmp/header.i"
{
    grep -vE '\b(static|typedef)\b' "$tmp/header.i" | grep -oE "\\b${prefix}[A-Za-z0-9_]+ *\\(" |
        sed 's/ *($//' || true
    tr '\n' ' ' <"$tmp/header.i" | grep -oE '\bextern [^;(){}]*;' |
        sed -E 's/ *(\[[^]]*\])? *;$//; s/.*[^A-Za-z0-9_]//' |
        grep -E "^(${prefix}|${uprefix}|rmpi_|rmp_mpi_)" || true
} | sort -u >"$tmp/declared"
if [ ! -s "$tmp/declared" ]; then
    echo "check-exports: found no declaration in $header" >&2
    exit 1
fi
nm -D --defined-only "$libdir/lib$lib.so" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/so"
nm -g --defined-only "$libdir/lib$lib.a" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/a"

status=0
for kind in so a; do
    extra=$(comm -13 "$tmp/declared" "$tmp/$kind" | tr '\n' ' ')
    missing=$(comm -23 "$tmp/declared" "$tmp/$kind" | tr '\n' ' ')
    if [ -n "$extra" ]; then
        echo "lib$lib.$kind exports names $header does not declare: $extra" >&2
        status=1
    fi
    if [ -n "$missing" ]; then
        echo "lib$lib.$kind does not export what $header declares: $missing" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] || exit 1
echo "exports: lib$lib.so $(wc -l <"$tmp/so"), lib$lib.a $(wc -l <"$tmp/a")," \
    "declared $(wc -l <"$tmp/declared")"
