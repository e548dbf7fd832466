#!/bin/sh
# rmpcc.sh CC SRCDIR LIBDIR BINDIR OUTDIR [LDFLAGS] — the build tree's rmpcc and rmp-mpi.pc
# as a user meets them: `rmpcc -show` prints exactly the compiler, include and link flags
# (none for -c), -static-rmp links the archives (the program needs no librmp*.so), the
# default links the shared libraries, pkg-config rmp-mpi gives flags that build the same
# program, and a call outside the subset fails at link time naming the function. Leaves
# OUTDIR/hello-shared, hello-static and hello-pc for the caller to run.
set -eu
cc=$1
src=$2
libdir=$3
bindir=$4
out=$5
ldflags=${6:-} # the variant's sanitizer flags: one word list
rmpcc=$bindir/rmpcc
inc=$src/include

fail() {
    echo "rmpcc: $*" >&2
    exit 1
}

got=$("$rmpcc" -show -o prog prog.c)
want="$cc -I$inc/rmp -I$inc -o prog prog.c -L$libdir -Wl,-rpath,$libdir -lrmp-mpi -lrmp"
[ "$got" = "$want" ] || fail "-show printed '$got', expected '$want'"
got=$("$rmpcc" -show -c prog.c)
[ "$got" = "$cc -I$inc/rmp -I$inc -c prog.c" ] || fail "-show -c printed '$got'"
got=$(RMPCC_CC=othercc "$bindir/rmpicc" -show -static-rmp prog.c)
case "$got" in
"othercc -I$inc/rmp -I$inc prog.c $libdir/librmp-mpi.a $libdir/librmp.a "*-lpmix*) ;;
*) fail "RMPCC_CC=othercc rmpicc -show -static-rmp printed '$got'" ;;
esac

# shellcheck disable=SC2086 # the flags are meant to split into words
"$rmpcc" $ldflags -o "$out/hello-shared" "$src/tests/packaging/mpi_hello.c"
readelf -d "$out/hello-shared" | grep -q 'NEEDED.*librmp-mpi\.so\.0' ||
    fail "hello-shared does not load librmp-mpi.so.0"
# shellcheck disable=SC2086
"$rmpcc" -static-rmp $ldflags -o "$out/hello-static" "$src/tests/packaging/mpi_hello.c"
if readelf -d "$out/hello-static" | grep -q 'NEEDED.*librmp'; then
    fail "hello-static (-static-rmp) still needs a librmp*.so"
fi

export PKG_CONFIG_PATH="$libdir/pkgconfig"
got=$(pkg-config --cflags rmp-mpi)
case "$got" in # then those of rmp's private requirements, which pkg-config always adds
"-I$inc/rmp -I$inc "* | "-I$inc/rmp -I$inc") ;;
*) fail "pkg-config --cflags rmp-mpi is '$got'" ;;
esac
libs=$(pkg-config --libs rmp-mpi)
case " $libs " in
*" -lrmp-mpi "*" -lrmp "*) ;;
*) fail "pkg-config --libs rmp-mpi is '$libs' (no -lrmp-mpi before -lrmp)" ;;
esac
# shellcheck disable=SC2086
$cc $ldflags -o "$out/hello-pc" "$src/tests/packaging/mpi_hello.c" $(pkg-config --cflags rmp-mpi) $libs

if "$rmpcc" -o "$out/outside" "$src/tests/packaging/mpi_outside.c" 2>"$out/outside.err"; then
    fail "a program calling MPI_Comm_spawn linked"
fi
grep -q "undefined reference to .MPI_Comm_spawn'" "$out/outside.err" ||
    fail "linking MPI_Comm_spawn failed without naming it: $(cat "$out/outside.err")"
echo "rmpcc: OK"
