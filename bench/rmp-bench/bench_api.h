/* bench_api.h — the only door from the benchmark code to a message-passing library. The
 * measurement code calls b_* wrappers; BENCH_MPI selects MPI (mpi.h, any implementation),
 * otherwise rmp. Both backends keep the same semantics: every call works on the world
 * communicator and returns 0 or a backend error code that b_strerror() explains. */
#ifndef BENCH_API_H
#define BENCH_API_H

#ifdef BENCH_MPI
#include "bench_api_mpi.h"
#else
#include "bench_api_rmp.h"
#endif

#endif
