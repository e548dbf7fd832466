#!/bin/sh
# install-deps.sh — install the Debian 12 packages rmp's build and tests need, only those missing.
# A fast no-op when everything is present (make deps / make check / make demo run it first).
set -eu

PKGS="build-essential pkg-config libpmix-dev libpmix-bin libcriterion-dev"
# python3: tools/gen-api (the prototypes and glue generated from api/mpi.api).
PKGS="$PKGS python3"
# The fuzz targets (tests/fuzz/run): clang with its libFuzzer and sanitizer runtimes.
PKGS="$PKGS clang libclang-rt-14-dev"
# The verbs transport and its soft-RoCE VM tests.
PKGS="$PKGS rdma-core libibverbs-dev librdmacm-dev ibverbs-providers ibverbs-utils rdmacm-utils"
PKGS="$PKGS perftest qemu-system-x86 busybox-static cpio kmod iproute2"
# Open MPI's mpirun: a second PMIx launcher the shm tests run rmp under (no mrun sweep).
PKGS="$PKGS openmpi-bin"
# Slurm and munge for the cluster of VMs (tests/cluster: srun --mpi=pmix across kernels). They
# run only inside the VMs, configured by tests/cluster/node-up; on the host slurmd and
# slurmctld stay stopped (their units need /etc/slurm/slurm.conf, which nothing writes here).
# Slurm's pmix plugin loads the libpmix.so of libpmix-dev, above.
PKGS="$PKGS slurm-wlm munge"
# gfortran: the Fortran bindings (mpif.h, use mpi, use mpi_f08, rmpifort; mk/fortran.mk).
PKGS="$PKGS gfortran"
# CMake: its FindMPI must find rmp through rmpcc/rmpicxx (tests/packaging/cmake-findmpi.sh).
PKGS="$PKGS cmake"
# RMP_PROFILE's report.html opened in a real headless browser (tests/integration/test_prof.c,
# tests/prof/check-html.py), python3 for its checks, xmllint to validate the page.
PKGS="$PKGS chromium python3 libxml2-utils"

# One dpkg-query for all: it lists the packages it knows with their state (unknown ones only
# on stderr), so anything not reported "installed" is missing.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PKGS 2>/dev/null |
    awk '$2 == "installed" { print $1 }' || true)
missing=""
for p in $PKGS; do
    echo "$installed" | grep -qx "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing missing packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "install-deps: missing packages:$missing" >&2
    echo "install-deps: not root and sudo is not available without a password;" >&2
    echo "install-deps: run as root: apt-get install$missing" >&2
    exit 1
fi

if ! $SUDO apt-get update -qq; then
    echo "install-deps: 'apt-get update' failed (no network or no apt sources?)" >&2
    exit 1
fi
# shellcheck disable=SC2086 # the package list is meant to split into words
if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    $missing </dev/null; then
    echo "install-deps: 'apt-get install$missing' failed" >&2
    exit 1
fi
