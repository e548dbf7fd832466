#!/bin/sh
# missing-deps.sh SRCDIR VARIANT — on a machine without the packages, a target that compiles
# stops at once with one line naming them and `make deps`; deps and clean still start. The
# missing packages are simulated with a pkg-config search path that lacks their .pc files; make
# runs with -n, so nothing in the tree changes.
set -eu
src=$1
variant=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/none" "$tmp/no-criterion"
# Every .pc file of the system (the libraries' own requirements included) except criterion's.
for dir in $(pkg-config --variable=pc_path pkg-config | tr ':' ' '); do
    for pc in "$dir"/*.pc; do
        if [ -e "$pc" ] && [ "${pc##*/}" != criterion.pc ]; then
            ln -sf "$pc" "$tmp/no-criterion/"
        fi
    done
done

# mk PCDIR TARGET: make -n TARGET, the given .pc files only; stderr in $tmp/err.
mk() {
    status=0
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PKG_CONFIG_LIBDIR="$tmp/$1" PKG_CONFIG_PATH= \
        make -n --no-print-directory -C "$src" VARIANT="$variant" "$2" >/dev/null 2>"$tmp/err" ||
        status=$?
}

fail() {
    echo "missing-deps: $*" >&2
    echo "--- make's stderr:" >&2
    cat "$tmp/err" >&2
    exit 1
}

# expect_stop PCDIR TARGET MESSAGE: status 2 and stderr one line "Makefile:N: *** MESSAGE.  Stop."
expect_stop() {
    mk "$1" "$2"
    [ "$status" -eq 2 ] || fail "make $2 without $1: status $status, expected 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "make $2 without $1: more than one line on stderr"
    line=$(sed -n 's/^Makefile:[0-9]*: \*\*\* \(.*\)\.  Stop\.$/\1/p' "$tmp/err")
    [ "$line" = "$3" ] || fail "make $2 without $1: not the line '$3'"
}

need="run 'make deps' (or 'make demo') first"
expect_stop none all "rmp: libpmix-dev, libibverbs-dev, librdmacm-dev are missing: $need"
expect_stop none lib "rmp: libpmix-dev, libibverbs-dev, librdmacm-dev are missing: $need"
expect_stop none tests "rmp: libpmix-dev, libibverbs-dev, librdmacm-dev are missing: $need"
expect_stop no-criterion tests "rmp: libcriterion-dev is missing: $need"

# What a fresh machine runs first, and a build that needs no test framework.
for t in deps clean; do
    mk none "$t"
    [ "$status" -eq 0 ] || fail "make -n $t without the packages: status $status, expected 0"
done
mk no-criterion all
[ "$status" -eq 0 ] || fail "make -n all without criterion: status $status, expected 0"
echo "missing-deps: OK"
