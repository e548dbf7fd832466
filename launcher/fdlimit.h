/* fdlimit.h: the open files mrun needs for a job, counted from what it opens per rank, and
 * the open-file limit raised to fit, or the job refused before any rank starts. */
#ifndef MRUN_FDLIMIT_H
#define MRUN_FDLIMIT_H

#include <stdbool.h>

/* Raises mrun's soft RLIMIT_NOFILE to what nprocs ranks need (files: --output-filename's two
 * files per rank); the ranks still get the limit mrun was started with (procs.h). Returns
 * false after one line with the numbers and the fix when the hard limit is too low. */
bool fdlimit_prepare(int nprocs, bool files);

#endif
