/* args.h: mrun's command line (args.c): its own options and the mpirun/mpiexec spellings
 * scripts pass, parsed into mrun_opts_t. */
#ifndef MRUN_ARGS_H
#define MRUN_ARGS_H

#include "mrun.h"

enum { MRUN_MAX_PROCS = 4096, MRUN_EXIT_USAGE = 2 };

/* Fills *o from argv. Returns -1 to go on, else the status to exit with right away (0 after
 * --help or --version, 2 after one line on stderr saying what is wrong with the command line,
 * 1 when out of memory). args_free releases what o holds, whatever was returned. */
int args_parse(int argc, char **argv, mrun_opts_t *o);
void args_free(mrun_opts_t *o);

#endif
