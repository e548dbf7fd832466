/* mrun.h: mrun's command line, as parsed by mrun.c and read by the job it starts. */
#ifndef MRUN_MRUN_H
#define MRUN_MRUN_H

#include <stdbool.h>

#define MRUN_VERSION "0.1.0"

enum { BIND_AUTO, BIND_CORE, BIND_NONE };

typedef struct mrun_opts {
    int nprocs;              /* -n */
    int nnodes;              /* --nodes, virtual nodes (default 1) */
    bool tag_output;         /* --tag-output */
    int bind;                /* --bind-to: BIND_AUTO, BIND_CORE or BIND_NONE */
    double timeout_s;        /* --timeout; 0: none */
    const char *timeout_arg; /* as the user wrote it, for the message */
    char **exports;          /* -x VAR[=VAL] arguments, nexports of them */
    int nexports;
    char **argv;             /* the program and its arguments */
    char stat_env[48];       /* "RMP_MRUN_FD=<fd>:<mrun's pid>" for the ranks */
} mrun_opts_t;

#endif
