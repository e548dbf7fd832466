#!/bin/sh
# static-link.sh CC PKG_CONFIG_DIR SOURCE OUTPUT [LDFLAGS] — link SOURCE with librmp.a the way
# a user would, from `pkg-config --static` alone: librmp itself static (-Wl,-Bstatic -lrmp
# -Wl,-Bdynamic), the libraries it needs (PMIx, verbs, rdmacm) taken from Requires.private.
# Then check that the program does not load librmp.so.
set -eu
cc=$1
pcdir=$2
src=$3
out=$4
ldflags=${5:-} # the variant's sanitizer flags: one word list

export PKG_CONFIG_PATH="$pcdir"
cflags=$(pkg-config --static --cflags rmp)
libs=$(pkg-config --static --libs rmp)
case " $libs " in
*" -lrmp "*) ;;
*) echo "static-link: 'pkg-config --static --libs rmp' has no -lrmp: $libs" >&2; exit 1 ;;
esac
libs=$(echo " $libs " | sed 's/ -lrmp / -Wl,-Bstatic -lrmp -Wl,-Bdynamic /')
echo "static-link: $cc $src $cflags $libs $ldflags"
# shellcheck disable=SC2086 # the flags are meant to split into words
$cc $ldflags -o "$out" "$src" $cflags $libs
if readelf -d "$out" | grep -q 'NEEDED.*librmp'; then
    echo "static-link: $out still needs librmp.so:" >&2
    readelf -d "$out" | grep NEEDED >&2
    exit 1
fi
echo "static-link: OK"
