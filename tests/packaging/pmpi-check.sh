#!/bin/sh
# pmpi-check.sh CC SRCDIR LIBDIR — the profiling interface (MPI-3.1 14.2) as built:
#  - tools/gen-pmpi makes the expected prototypes of sample declarations of every kind;
#  - pmpi.h, made in the build tree (build/include/rmp), is what tools/gen-pmpi makes of
#    include/rmp/mpi.h, and no copy of it is committed (one that was went stale at merges);
#  - librmp-mpi.a and librmp-mpi.so refer to no MPI_ name (the layer's calls to itself go to
#    PMPI_, never to a tool's MPI_X: 14.2.2);
#  - in librmp-mpi.a every MPI_X is weak and its PMPI_X a strong definition (a program's own
#    MPI_X links with it without a duplicate symbol); MPI_X is RMP_PROFILE's wrapper (gen-pmpi
#    wrap), which calls PMPI_X, or for a call it cannot wrap (variadic) at PMPI_X's address.
set -eu
cc=$1
src=$2
libdir=$3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# The generator on the kinds of declaration other parts of mpi.h may hold: a PMPI_ prototype
# for each MPI_ function (attributes, variadics, function-pointer arguments, long ones
# wrapped), none for typedefs, static inline functions, data, macros, all-capital callbacks,
# and one for a name declared twice.
cat >"$tmp/cases.h" <<'CASES'
typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Zz_copy_fn(MPI_Comm, int, void *, void *, void *, int *);
typedef void(MPI_Zz_handler)(MPI_Comm *, int *, ...);
int MPI_Zz_plain(int a);
double MPI_Zz_double(void);
int MPI_Zz_fnptr(MPI_Zz_copy_fn *copy_fn, void (*cb)(int, int), void *extra);
int MPI_Zz_vararg(const int level, ...);
int MPI_Zz_attr(int a) __attribute__((deprecated));
extern int MPI_Zz_extern(int a);
int MPI_ZZ_NULL_FN(int a);
static inline int MPI_Zz_inline(int a) { return a; }
extern int MPI_ZZ_DATA;
struct MPI_Zz_s { int (*f)(int); };
#define MPI_Zz_macro(x) (x)
int MPI_Zz_long(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, int *request);
int MPI_Zz_plain(int a);
int MPI_T_zz_init(int a);
CASES
cat >"$tmp/cases.want" <<'WANT'
int PMPI_Zz_plain(int a);
double PMPI_Zz_double(void);
int PMPI_Zz_fnptr(MPI_Zz_copy_fn *copy_fn, void (*cb)(int, int), void *extra);
int PMPI_Zz_vararg(const int level, ...);
int PMPI_Zz_attr(int a) __attribute__((deprecated));
extern int PMPI_Zz_extern(int a);
int PMPI_Zz_long(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, int *request);
int PMPI_T_zz_init(int a);
WANT
"$src/tools/gen-pmpi" header "$cc" "$tmp/cases.h" |
    sed -n '/^#define RMP_PMPI_H/,/^#endif/p' | sed '1,2d;$d' | sed '$d' >"$tmp/cases.got"
if ! cmp -s "$tmp/cases.want" "$tmp/cases.got"; then
    echo "pmpi-check: tools/gen-pmpi on the sample declarations:" >&2
    diff "$tmp/cases.want" "$tmp/cases.got" >&2 || true
    status=1
fi

gen=$src/build/include/rmp
"$src/tools/gen-pmpi" header "$cc -I$gen" "$src/include/rmp/mpi.h" >"$tmp/pmpi.h"
if ! cmp -s "$tmp/pmpi.h" "$gen/pmpi.h"; then
    echo "pmpi-check: build/include/rmp/pmpi.h is stale: run make" >&2
    diff "$gen/pmpi.h" "$tmp/pmpi.h" | head -20 >&2 || true
    status=1
fi
if git -C "$src" ls-files --error-unmatch include/rmp/pmpi.h >/dev/null 2>&1; then
    echo "pmpi-check: include/rmp/pmpi.h is committed: it is generated (make writes it to" \
        "build/include/rmp); git rm it" >&2
    status=1
fi

"$src/tools/gen-pmpi" names "$gen/pmpi.h" | sort -u >"$tmp/names"
"$src/tools/gen-pmpi" wrap "$gen/pmpi.h" >"$tmp/wrap.c"
# The wrapped calls: each MPI_X whose wrapper returns PMPI_X's result (with the profile off).
grep -oE '^        return PMPI_[A-Za-z0-9_]+\(' "$tmp/wrap.c" | sed 's/.*return P//; s/($//' |
    sort -u >"$tmp/wrapped"
nm "$libdir/librmp-mpi.a" >"$tmp/a.nm"
nm -D "$libdir/librmp-mpi.so" >"$tmp/so.nm"
inner=$(awk '$1 == "U" && $2 ~ /^MPI_/ { print $2 }' "$tmp/a.nm" "$tmp/so.nm" | sort -u | tr '\n' ' ')
if [ -n "$inner" ]; then
    echo "pmpi-check: librmp-mpi calls MPI_ names (not PMPI_) inside: $inner" >&2
    status=1
fi
bad=$(awk -v wf="$tmp/wrapped" 'BEGIN { while ((getline l < wf) > 0) wrapped[l] = 1 }
           NR == FNR { want[$1] = 1; next }
           NF == 3 && ($3 in want) && $2 != "W" { print $3 "(" $2 ")" }
           NF == 3 && (substr($3, 2) in want) && substr($3, 1, 1) == "P" && $2 != "T" { print $3 "(" $2 ")" }
           NF == 3 { addr[$3] = $1 }
           END { for (n in want) if (!(n in wrapped) && addr[n] != addr["P" n])
                     print n "@" addr[n] "!=P@" addr["P" n]
                 for (n in want) if ((n in wrapped) && addr[n] == "") print n "(undefined)" }' \
    "$tmp/names" "$tmp/a.nm" | sort | tr '\n' ' ')
if [ -n "$bad" ]; then
    echo "pmpi-check: in librmp-mpi.a MPI_X must be weak (W) aliases of strong PMPI_X (T): $bad" >&2
    status=1
fi
[ "$status" -eq 0 ] || exit 1
[ "$(wc -l <"$tmp/wrapped")" -gt 400 ] || { echo "pmpi-check: gen-pmpi wrap wraps only $(wc -l <"$tmp/wrapped") calls" >&2; exit 1; }
echo "pmpi-check: $(wc -l <"$tmp/names") calls, MPI_ weak over PMPI_; OK"
