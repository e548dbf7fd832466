#!/bin/sh
# pmpi-check.sh CC SRCDIR LIBDIR — the profiling interface (MPI-3.1 14.2) as built:
#  - include/rmp/pmpi.h is what tools/gen-pmpi makes of include/rmp/mpi.h, in the working tree
#    and, when SRCDIR is a git tree, as committed (HEAD's mpi.h gives HEAD's pmpi.h): a merge
#    that added MPI calls without committing the regenerated pmpi.h fails here;
#  - librmp-mpi.a and librmp-mpi.so refer to no MPI_ name (the layer's calls to itself go to
#    PMPI_, never to a tool's MPI_X: 14.2.2);
#  - in librmp-mpi.a every MPI_X is weak and its PMPI_X a strong definition (a program's own
#    MPI_X links with it without a duplicate symbol), both at one address.
set -eu
cc=$1
src=$2
libdir=$3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

"$src/tools/gen-pmpi" header "$cc" "$src/include/rmp/mpi.h" >"$tmp/pmpi.h"
if ! cmp -s "$tmp/pmpi.h" "$src/include/rmp/pmpi.h"; then
    echo "pmpi-check: include/rmp/pmpi.h is stale: run make (or tools/gen-pmpi header $cc" \
        "include/rmp/mpi.h > include/rmp/pmpi.h)" >&2
    diff "$src/include/rmp/pmpi.h" "$tmp/pmpi.h" | head -20 >&2 || true
    status=1
fi
if git -C "$src" rev-parse --verify -q HEAD:include/rmp/pmpi.h >/dev/null 2>&1; then
    mkdir -p "$tmp/head/include/rmp"
    for f in include/rmp.h include/rmp/mpi.h include/rmp/pmpi.h; do
        git -C "$src" show "HEAD:$f" >"$tmp/head/$f"
    done
    "$src/tools/gen-pmpi" header "$cc" "$tmp/head/include/rmp/mpi.h" >"$tmp/head.pmpi.h"
    if ! cmp -s "$tmp/head.pmpi.h" "$tmp/head/include/rmp/pmpi.h"; then
        echo "pmpi-check: the committed include/rmp/pmpi.h does not match the committed mpi.h:" \
            "regenerate it (make) and commit it" >&2
        diff "$tmp/head/include/rmp/pmpi.h" "$tmp/head.pmpi.h" | head -20 >&2 || true
        status=1
    fi
fi

"$src/tools/gen-pmpi" names "$src/include/rmp/pmpi.h" | sort -u >"$tmp/names"
nm "$libdir/librmp-mpi.a" >"$tmp/a.nm"
nm -D "$libdir/librmp-mpi.so" >"$tmp/so.nm"
inner=$(awk '$1 == "U" && $2 ~ /^MPI_/ { print $2 }' "$tmp/a.nm" "$tmp/so.nm" | sort -u | tr '\n' ' ')
if [ -n "$inner" ]; then
    echo "pmpi-check: librmp-mpi calls MPI_ names (not PMPI_) inside: $inner" >&2
    status=1
fi
bad=$(awk 'NR == FNR { want[$1] = 1; next }
           NF == 3 && ($3 in want) && $2 != "W" { print $3 "(" $2 ")" }
           NF == 3 && (substr($3, 2) in want) && substr($3, 1, 1) == "P" && $2 != "T" { print $3 "(" $2 ")" }
           NF == 3 { addr[$3] = $1 }
           END { for (n in want) if (addr[n] != addr["P" n]) print n "@" addr[n] "!=P@" addr["P" n] }' \
    "$tmp/names" "$tmp/a.nm" | sort | tr '\n' ' ')
if [ -n "$bad" ]; then
    echo "pmpi-check: in librmp-mpi.a MPI_X must be weak (W) aliases of strong PMPI_X (T): $bad" >&2
    status=1
fi
[ "$status" -eq 0 ] || exit 1
echo "pmpi-check: $(wc -l <"$tmp/names") calls, MPI_ weak over PMPI_; OK"
