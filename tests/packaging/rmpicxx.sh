#!/bin/sh
# rmpicxx.sh CXX SRCDIR LIBDIR BINDIR OUTDIR [LDFLAGS] — the C++ driver as the OSU benchmarks'
# build uses it: `rmpicxx -show` is rmpcc's command with the C++ compiler (rmpic++ the same,
# RMPICXX_CXX another), mpi.h compiles as C++ without a warning (-Wall -Wextra -Werror
# -pedantic), and a C object made by `rmpcc -c` links with rmpicxx. Leaves OUTDIR/hello-cxx
# (C object, C++ link) and OUTDIR/cxx-src (C++ source) for the caller to run.
set -eu
cxx=$1 # the C++ compiler the build gave rmpicxx
src=$2
libdir=$3
bindir=$4
out=$5
ldflags=${6:-} # the variant's sanitizer flags: one word list
inc=$src/include
gen=$src/build/include/rmp # the generated headers (mpi_proto.h, pmpi.h), made by make

fail() {
    echo "rmpicxx: $*" >&2
    exit 1
}

got=$("$bindir/rmpicxx" -show -o prog prog.o)
want="$cxx -I$inc/rmp -I$inc -I$gen -o prog prog.o -L$libdir -Wl,-rpath,$libdir -lrmp-mpi -lrmp"
[ "$got" = "$want" ] || fail "-show printed '$got', expected '$want'"
got=$(RMPICXX_CXX=othercxx "$bindir/rmpic++" -show -c prog.cpp)
[ "$got" = "othercxx -I$inc/rmp -I$inc -I$gen -c prog.cpp" ] ||
    fail "RMPICXX_CXX=othercxx rmpic++ -show -c printed '$got'"

# shellcheck disable=SC2086 # the flags are meant to split into words
"$bindir/rmpcc" $ldflags -c -o "$out/hello.o" "$src/tests/packaging/mpi_hello.c"
# shellcheck disable=SC2086
"$bindir/rmpicxx" $ldflags -o "$out/hello-cxx" "$out/hello.o"
readelf -d "$out/hello-cxx" | grep -q 'NEEDED.*librmp-mpi\.so\.0' ||
    fail "hello-cxx does not load librmp-mpi.so.0"
# shellcheck disable=SC2086
"$bindir/rmpicxx" $ldflags -Wall -Wextra -Werror -pedantic -o "$out/cxx-src" \
    "$src/tests/packaging/mpi_cxx.cpp"
echo "rmpicxx: OK"
