#!/bin/sh
# rmpcc.sh CC SRCDIR LIBDIR BINDIR OUTDIR [LDFLAGS] — the build tree's rmpcc and rmp-mpi.pc
# as a user meets them: `rmpcc -show` prints exactly the compiler, include and link flags
# (none for -c), the --showme:* queries of Open MPI and -compile-info/-link-info of MPICH
# print what those wrappers print, -static-rmp links the archives (the program needs no librmp*.so), the
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
gen=$src/build/include/rmp # the generated headers (mpi_proto.h, pmpi.h), made by make

fail() {
    echo "rmpcc: $*" >&2
    exit 1
}

got=$("$rmpcc" -show -o prog prog.c)
want="$cc -I$inc/rmp -I$inc -I$gen -o prog prog.c -L$libdir -Wl,-rpath,$libdir -lrmp-mpi -lrmp"
[ "$got" = "$want" ] || fail "-show printed '$got', expected '$want'"
got=$("$rmpcc" -show -c prog.c)
[ "$got" = "$cc -I$inc/rmp -I$inc -I$gen -c prog.c" ] || fail "-show -c printed '$got'"
got=$(RMPCC_CC=othercc "$bindir/rmpicc" -show -static-rmp prog.c)
case "$got" in
"othercc -I$inc/rmp -I$inc -I$gen prog.c $libdir/librmp-mpi.a $libdir/librmp.a "*-lpmix*) ;;
*) fail "RMPCC_CC=othercc rmpicc -show -static-rmp printed '$got'" ;;
esac

# What build systems ask of an MPI wrapper (CMake's FindMPI, autotools, Meson), in the exact
# formats of Open MPI's mpicc (--showme:*, also -showme:*) and MPICH's (-compile-info...).
expect() { # expect OUTPUT WANT WHAT
    [ "$1" = "$2" ] || fail "$3 printed '$1', expected '$2'"
}
for dash in - --; do
    expect "$("$rmpcc" ${dash}showme:compile)" "-I$inc/rmp -I$inc -I$gen" "${dash}showme:compile"
    expect "$("$rmpcc" ${dash}showme:link)" "-L$libdir -Wl,-rpath,$libdir -lrmp-mpi -lrmp" \
        "${dash}showme:link"
    expect "$("$rmpcc" ${dash}showme:incdirs)" "$inc/rmp $inc $gen" "${dash}showme:incdirs"
    expect "$("$rmpcc" ${dash}showme:libdirs)" "$libdir" "${dash}showme:libdirs"
    expect "$("$rmpcc" ${dash}showme:libs)" "rmp-mpi rmp" "${dash}showme:libs"
    expect "$("$rmpcc" ${dash}showme:command)" "$cc" "${dash}showme:command"
done
version=$(sed -n 's/^VERSION := //p' "$src/Makefile")
expect "$("$rmpcc" --showme:version)" "rmpcc: rmp $version (Language: C)" "--showme:version"
expect "$("$bindir/rmpicc" --showme:version)" "rmpicc: rmp $version (Language: C)" \
    "rmpicc --showme:version"
expect "$("$bindir/rmpicxx" --showme:version)" "rmpicxx: rmp $version (Language: C++)" \
    "rmpicxx --showme:version"
expect "$(RMPICXX_CXX=otherc++ "$bindir/rmpicxx" -showme:command)" "otherc++" \
    "rmpicxx -showme:command"
# --showme alone is the whole command, as -show; MPICH's -compile-info and -link-info too
# (MPICH prints the command the wrapper would run, a link unless -c says otherwise).
all="$cc -I$inc/rmp -I$inc -I$gen -L$libdir -Wl,-rpath,$libdir -lrmp-mpi -lrmp"
for q in --showme -showme -show -compile-info -link-info -compile_info -link_info; do
    expect "$("$rmpcc" $q)" "$all" "$q"
done
expect "$("$rmpcc" -compile-info -c p.c)" "$cc -I$inc/rmp -I$inc -I$gen -c p.c" "-compile-info -c p.c"
# MPICH 4's -show-compile-info and -show-link-info (Meson asks them): the flags alone.
expect "$("$rmpcc" -show-compile-info)" "-I$inc/rmp -I$inc -I$gen" "-show-compile-info"
expect "$("$rmpcc" -show-link-info)" "-L$libdir -Wl,-rpath,$libdir -lrmp-mpi -lrmp" \
    "-show-link-info"
# -static-rmp: the archives, and librmp's own libraries (PMIx...) among the names and dirs.
case "$("$rmpcc" -static-rmp -showme:link)" in
"$libdir/librmp-mpi.a $libdir/librmp.a "*-lpmix*) ;;
*) fail "-static-rmp -showme:link printed '$("$rmpcc" -static-rmp -showme:link)'" ;;
esac
case " $("$rmpcc" -static-rmp -showme:libs) " in
" rmp-mpi rmp "*"pmix "*) ;;
*) fail "-static-rmp -showme:libs printed '$("$rmpcc" -static-rmp -showme:libs)'" ;;
esac
if "$rmpcc" --showme:nonsense >/dev/null 2>"$out/showme.err"; then
    fail "--showme:nonsense succeeded"
fi
grep -q "unknown --showme:nonsense" "$out/showme.err" || fail "--showme:nonsense: $(cat "$out/showme.err")"
rm -f "$out/showme.err"

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
"-I$inc/rmp -I$gen -I$inc "* | "-I$inc/rmp -I$gen -I$inc") ;;
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
    fail "a program calling MPIX_Comm_revoke linked"
fi
grep -q "undefined reference to .MPIX_Comm_revoke'" "$out/outside.err" ||
    fail "linking MPIX_Comm_revoke failed without naming it: $(cat "$out/outside.err")"
# rmpcc puts include/rmp on the path before the user's own -I: only MPI's names (mpi*.h,
# pmpi.h) and rmp_-prefixed ones may live there, or a user's info.h or io.h (HDF5 checks for
# <io.h>) in a later -I directory would be shadowed by rmp's.
for h in "$inc"/rmp/*.h; do
    case ${h##*/} in mpi*.h | pmpi.h | rmp_*.h) ;; *) fail "include/rmp/${h##*/} would shadow a user's header of that name" ;; esac
done
mkdir -p "$out/userinc"
for n in info io errors comm prof event; do
    printf '#define USER_%s_H 1\n' "$n" >"$out/userinc/$n.h"
done
printf '#include <mpi.h>\n#include "info.h"\n#include "io.h"\n#include "errors.h"\n#include "comm.h"\n#include "prof.h"\n#include "event.h"\n#if !USER_info_H || !USER_io_H || !USER_errors_H || !USER_comm_H || !USER_prof_H || !USER_event_H\n#error a header of the user was shadowed\n#endif\nint main(void) { return 0; }\n' >"$out/userinc.c"
"$rmpcc" -I"$out/userinc" -c -o "$out/userinc.o" "$out/userinc.c" ||
    fail "a program with its own info.h, io.h, errors.h ... in an -I directory did not get them"
echo "rmpcc: OK"
