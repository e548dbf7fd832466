#!/bin/sh
# api-check.sh SRCDIR — the one description of the API (api/mpi.api) and what is generated
# from it agree:
#  - tools/gen-api check accepts the description (kinds, directions, len= names);
#  - mpi_proto.h, made in the build tree (build/include/rmp), is what tools/gen-api makes of
#    api/mpi.api, and no copy of it is committed (one that was went stale at merges);
#  - no header of include/ but mpi_proto.h declares an MPI_ function the description has
#    (one prototype, generated, never a second hand-written one), and mpi.h declares none
#    the description lacks.
set -eu
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

"$src/tools/gen-api" check "$src/api/mpi.api" || status=1
"$src/tools/gen-api" proto "$src/api/mpi.api" >"$tmp/proto.h"
gen=$src/build/include/rmp
if ! cmp -s "$tmp/proto.h" "$gen/mpi_proto.h"; then
    echo "api-check: build/include/rmp/mpi_proto.h is stale: run make" >&2
    diff "$gen/mpi_proto.h" "$tmp/proto.h" | head -20 >&2 || true
    status=1
fi
if git -C "$src" ls-files --error-unmatch include/rmp/mpi_proto.h >/dev/null 2>&1; then
    echo "api-check: include/rmp/mpi_proto.h is committed: it is generated (make writes it to" \
        "build/include/rmp); git rm it" >&2
    status=1
fi

"$src/tools/gen-api" names "$src/api/mpi.api" | sort -u >"$tmp/names"
for h in "$src"/include/rmp.h "$src"/include/rmp/*.h; do
    case $h in */mpi_proto.h | */pmpi.h) continue ;; esac
    grep -oE '^[A-Za-z_][A-Za-z0-9_ *]* \*?MPI_[A-Za-z0-9_]+\(' "$h" |
        sed -E 's/.*(MPI_[A-Za-z0-9_]+)\($/\1/' | sort -u >"$tmp/hand"
    twice=$(comm -12 "$tmp/names" "$tmp/hand" | tr '\n' ' ')
    if [ -n "$twice" ]; then
        echo "api-check: ${h#"$src"/} declares by hand what mpi_proto.h generates: $twice" >&2
        status=1
    fi
done
# The same for what a header declares in any form (a macro writing prototypes, as mpi_io.h
# once did): every MPI_ function of the preprocessed mpi.h is an entry of the description.
"$src/tools/api-import" "${CC:-cc} -I$src/include -I$gen" "$src/include/rmp/mpi.h" |
    sed -n -E 's/^[^ #].* (MPI_[A-Za-z0-9_]+)( [a-z_= ,.0-9A-Z]*)?$/\1/p' | sort -u >"$tmp/declared"
outside=$(comm -23 "$tmp/declared" "$tmp/names" | tr '\n' ' ')
if [ -n "$outside" ]; then
    echo "api-check: mpi.h declares MPI_ functions api/mpi.api does not describe (no Fortran" \
        "binding, a prototype by hand): $outside" >&2
    status=1
fi
[ $status -eq 0 ] && echo "api-check: $(wc -l <"$tmp/names") functions, mpi_proto.h up to date; OK"
exit $status
