#!/bin/sh
# check-layers.sh OBJDIR [CC LIBS] — rmp's files call in one direction: downward through the
# layers, never back. Read from the objects' symbol tables (nm), over the whole tree:
# - no call up: the library's layers, bottom first, are runtime/transport, runtime (its
#   subfolders), comm, collectives, rma, io, mpi, fortran; a file may call its own layer and
#   those below, never one above (ARCHITECTURE.md says why each sits where it does);
# - no knot: two files that call each other (a file that cannot be read, tested or replaced
#   alone), anywhere: the shared piece belongs in a file below both;
# - with CC and LIBS: the runtime's objects alone (OBJDIR/runtime/**) link into a program that
#   calls rmp_init and rmp_finalize, and it runs (a singleton): the runtime needs nothing above.
set -eu
obj=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for d in runtime comm collectives rma io mpi fortran launcher; do
    [ -d "$obj/$d" ] && find "$obj/$d" -name '*.o'
done | sort >"$tmp/objs"
if ! grep -q "^$obj/runtime/" "$tmp/objs"; then
    echo "check-layers: no objects under $obj/runtime (build first)" >&2
    exit 1
fi
# "file defined-symbol" and "file used-symbol" lines
while read -r o; do
    f=${o#"$obj"/}
    nm "$o" | awk -v f="$f" '$2 ~ /^[TDBRVW]$/ { print f, $3 > "/dev/stderr" } $1 == "U" { print f, $2 }'
done <"$tmp/objs" >"$tmp/uses" 2>"$tmp/defs"
# file -> file edges (the launcher is a program of its own: only its own files count)
awk 'NR == FNR { if (!($2 in owner)) owner[$2] = $1; next }
     ($2 in owner) && owner[$2] != $1 { print $1, owner[$2] }' "$tmp/defs" "$tmp/uses" |
    awk '{ l1 = ($1 ~ /^launcher\//); l2 = ($2 ~ /^launcher\//) } l1 == l2' | sort -u >"$tmp/edges"
fail=0
# Calls up: the layer of each file is the first folder of this list its path starts with.
awk 'function layer(f,   i, n, L) {
         n = split("runtime/transport/ runtime/ comm/ collectives/ rma/ io/ mpi/ fortran/", L, " ")
         for (i = 1; i <= n; i++) if (index(f, L[i]) == 1) return i
         return 0
     }
     layer($1) && layer($2) > layer($1) { print $1 " -> " $2 }' "$tmp/edges" >"$tmp/up"
if [ -s "$tmp/up" ]; then
    echo "check-layers: these files call a layer above their own:" >&2
    cat "$tmp/up" >&2
    fail=1
fi
# Knots: pairs with both directions.
awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e && p[1] < p[2]) print p[1] " <-> " p[2] } }' \
    "$tmp/edges" | sort >"$tmp/cycles"
if [ -s "$tmp/cycles" ]; then
    echo "check-layers: these files call each other back and forth:" >&2
    cat "$tmp/cycles" >&2
    fail=1
fi
[ "$fail" = 0 ] || exit 1
# The runtime alone: its objects and libc, PMIx, verbs, nothing of the layers above.
if [ $# -ge 3 ]; then
    printf '#include "rmp.h"\nint main(int c, char **v)\n{\n    return rmp_init(&c, &v) || rmp_finalize();\n}\n' >"$tmp/alone.c"
    # shellcheck disable=SC2086 # LIBS is a list of flags
    if ! $2 -Iinclude -o "$tmp/alone" "$tmp/alone.c" $(find "$obj/runtime" -name '*.o' | sort) $3 ||
        ! env -u PMIX_NAMESPACE -u PMIX_RANK "$tmp/alone"; then
        echo "check-layers: the runtime's objects alone do not make a program that runs (above)" >&2
        exit 1
    fi
    echo "check-layers: the runtime's objects alone link and run rmp_init/rmp_finalize"
fi
echo "check-layers: $(wc -l <"$tmp/objs") objects, $(wc -l <"$tmp/edges") file-to-file calls, no call up, no knot"
