#!/bin/sh
# cmake-findmpi.sh CC CXX SRCDIR BINDIR LIBDIR OUTDIR [LDFLAGS] — CMake's own FindMPI finds rmp
# through its wrappers alone (MPI_C_COMPILER=rmpcc, MPI_CXX_COMPILER=rmpicxx: it asks them
# -showme:compile, -showme:link...), reports MPI 3.1 with rmp's include directories and
# libraries, and builds a C and a C++ program with MPI::MPI_C / MPI::MPI_CXX. Leaves
# OUTDIR/build/hello and OUTDIR/build/hellocxx for the caller to run under mrun. Without cmake
# it prints "cmake-findmpi: SKIP ..." and succeeds (install it: apt-get install cmake).
set -eu
cc=$1
cxx=$2
src=$3
bindir=$4
libdir=$5
out=$6
ldflags=${7:-} # the variant's sanitizer flags: one word list

fail() {
    echo "cmake-findmpi: $*" >&2
    exit 1
}
if ! command -v cmake >/dev/null 2>&1; then
    echo "cmake-findmpi: SKIP: cmake is not installed (apt-get install cmake)"
    exit 0
fi

mkdir -p "$out/proj"
cat >"$out/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.10)
project(rmp_findmpi C CXX)
find_package(MPI REQUIRED COMPONENTS C CXX)
message(STATUS "findmpi: version=${MPI_C_VERSION} inc=${MPI_C_INCLUDE_DIRS} libs=${MPI_C_LIBRARIES}")
message(STATUS "findmpi: cxx version=${MPI_CXX_VERSION} inc=${MPI_CXX_INCLUDE_DIRS} libs=${MPI_CXX_LIBRARIES}")
add_executable(hello hello.c)
target_link_libraries(hello MPI::MPI_C)
add_executable(hellocxx hello.cpp)
target_link_libraries(hellocxx MPI::MPI_CXX)
CMAKE
cp "$src/tests/packaging/mpi_hello.c" "$out/proj/hello.c"
cp "$src/tests/packaging/mpi_cxx.cpp" "$out/proj/hello.cpp"

# The system's Open MPI (mpicc, mpiexec on PATH) must not be what is found: only the
# wrappers named here are given, and MPI_HOME is cleared.
if ! env -u MPI_HOME cmake -S "$out/proj" -B "$out/build" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_CXX_COMPILER="$cxx" -DMPI_C_COMPILER="$bindir/rmpcc" \
    -DMPI_CXX_COMPILER="$bindir/rmpicxx" -DMPIEXEC_EXECUTABLE="$bindir/mrun" \
    -DCMAKE_C_FLAGS="$ldflags" -DCMAKE_CXX_FLAGS="$ldflags" \
    -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >"$out/configure.log" 2>&1; then
    tail -30 "$out/configure.log" >&2
    fail "cmake could not configure the project (FindMPI with rmpcc)"
fi
inc="$src/include/rmp;$src/include;$src/build/include/rmp"
libs="$libdir/librmp-mpi.so;$libdir/librmp.so"
for want in "-- findmpi: version=3.1 inc=$inc libs=$libs" \
    "-- findmpi: cxx version=3.1 inc=$inc libs=$libs"; do
    grep -qxF -- "$want" "$out/configure.log" ||
        fail "FindMPI did not report '$want': $(grep findmpi "$out/configure.log")"
done
if ! cmake --build "$out/build" >"$out/build.log" 2>&1; then
    tail -30 "$out/build.log" >&2
    fail "the project did not build"
fi
for p in hello hellocxx; do
    readelf -d "$out/build/$p" | grep -q 'NEEDED.*librmp-mpi\.so\.0' ||
        fail "$p does not load librmp-mpi.so.0"
done
echo "cmake-findmpi: OK"
