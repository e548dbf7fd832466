#!/bin/sh
# install-uninstall.sh SRCDIR VARIANT — `make install` into a temporary DESTDIR puts every file
# in place (the .pc naming every private dependency), and `make uninstall` then removes exactly
# those files: a file of another package in the same directories stays, no file of rmp does.
# The build is not remade (-o all): the test installs what `make tests` built.
set -eu
src=$1
variant=$2
prefix=/opt/rmp

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
root=$dest$prefix
mkdir -p "$root/lib" "$root/bin"
echo other >"$root/lib/libother.so.1"
echo other >"$root/bin/other-tool"

# The test may run under make (check-integration): start a make of its own, not a sub-make.
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -C "$src" -o all \
        VARIANT="$variant" PREFIX="$prefix" DESTDIR="$dest" "$@"
}

mk install
for f in include/rmp.h lib/librmp.a lib/librmp.so.0 lib/librmp.so lib/pkgconfig/rmp.pc \
    bin/mrun bin/rmp-bench bin/rmp-info include/rmp/mpi.h include/rmp/mpi_proto.h \
    include/rmp/pmpi.h lib/librmp-mpi.a lib/librmp-mpi.so.0 lib/librmp-mpi.so \
    lib/pkgconfig/rmp-mpi.pc bin/rmpcc bin/rmpicc; do
    if [ ! -e "$root/$f" ]; then
        echo "install-uninstall: make install did not install $prefix/$f" >&2
        exit 1
    fi
done
if [ "$(readlink "$root/lib/librmp.so")" != librmp.so.0 ]; then
    echo "install-uninstall: $prefix/lib/librmp.so is not a link to librmp.so.0" >&2
    exit 1
fi
incdir=$(PKG_CONFIG_PATH=$root/lib/pkgconfig pkg-config --variable=includedir rmp)
if [ "$incdir" != "$prefix/include" ]; then
    echo "install-uninstall: rmp.pc includedir is '$incdir', expected '$prefix/include'" >&2
    exit 1
fi
private=$(PKG_CONFIG_PATH=$root/lib/pkgconfig pkg-config --print-requires-private rmp | tr '\n' ' ')
if [ "$private" != "pmix libibverbs librdmacm " ]; then
    echo "install-uninstall: rmp.pc Requires.private is '$private'," \
        "expected 'pmix libibverbs librdmacm '" >&2
    exit 1
fi
if [ "$(readlink "$root/lib/librmp-mpi.so")" != librmp-mpi.so.0 ] ||
    [ "$(readlink "$root/bin/rmpicc")" != rmpcc ]; then
    echo "install-uninstall: librmp-mpi.so or rmpicc is not the expected link" >&2
    exit 1
fi
# The installed wrapper and .pc name the prefix, never the build tree.
show=$(RMPCC_CC=cc "$root/bin/rmpcc" -show -o p p.c)
want="cc -I$prefix/include/rmp -I$prefix/include -o p p.c -L$prefix/lib -Wl,-rpath,$prefix/lib -lrmp-mpi -lrmp"
if [ "$show" != "$want" ]; then
    echo "install-uninstall: installed rmpcc -show printed '$show', expected '$want'" >&2
    exit 1
fi
cflags=$(PKG_CONFIG_PATH=$root/lib/pkgconfig pkg-config --cflags-only-I rmp-mpi)
case "$cflags" in
"-I$prefix/include/rmp -I$prefix/include"*) ;;
*) echo "install-uninstall: rmp-mpi.pc gives '$cflags'" >&2; exit 1 ;;
esac
# The installed mpi.h is complete: its profiling interface (pmpi.h) came with it.
if ! echo 'int main(void) { return PMPI_Finalize(); }' |
    cc -fsyntax-only -I"$root/include/rmp" -I"$root/include" -include mpi.h -x c - ; then
    echo "install-uninstall: the installed mpi.h does not compile with PMPI_ calls" >&2
    exit 1
fi

mk uninstall
left=$(cd "$dest" && find . ! -type d | sort | tr '\n' ' ')
if [ "$left" != "./opt/rmp/bin/other-tool ./opt/rmp/lib/libother.so.1 " ]; then
    echo "install-uninstall: after make uninstall, files in DESTDIR: $left" \
        "(expected only the two files of another package)" >&2
    exit 1
fi
if [ -e "$root/include/rmp" ]; then
    echo "install-uninstall: make uninstall left $prefix/include/rmp" >&2
    exit 1
fi
echo "install-uninstall: OK"
