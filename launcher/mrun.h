/* mrun.h: mrun's command line, as parsed by mrun.c and read by the job it starts. */
#ifndef MRUN_MRUN_H
#define MRUN_MRUN_H

#include <stdbool.h>

#define MRUN_VERSION "0.1.0"

enum { BIND_AUTO, BIND_CORE, BIND_NONE };
enum { MAP_SLOT, MAP_CORE, MAP_NODE }; /* --map-by: rank order over CPUs / virtual nodes */

typedef struct mrun_opts {
    int nprocs;              /* -n */
    int nnodes;              /* --nodes, virtual nodes (default 1) */
    int npernode;            /* -N/--npernode/--ppn: ranks per (virtual) node; 0: not given */
    bool tag_output;         /* --tag-output */
    int bind;                /* --bind-to: BIND_AUTO, BIND_CORE or BIND_NONE */
    double timeout_s;        /* --timeout; 0: none */
    const char *timeout_arg; /* as the user wrote it, for the message */
    char **exports;          /* -x VAR[=VAL] arguments, nexports of them */
    int nexports;
    bool oversubscribe;      /* --oversubscribe: more ranks than -H slots allowed */
    bool report_bindings;    /* --report-bindings: one line per rank on stderr */
    int map_by;              /* --map-by: MAP_SLOT (default), MAP_CORE or MAP_NODE */
    int host_slots;          /* slots given by -H/--host (all on this machine); 0: none */
    const char *output_dir;  /* --output-filename DIR: rank r writes DIR/1/rank.r/std{out,err} */
    char **argv;             /* the program and its arguments */
    char **argv_buf;         /* args.c's copy of mrun's argv (spellings normalized) */
    char **argv_new;         /* strings args.c allocated for it, NULL-terminated */
    char stat_env[48];       /* "RMP_MRUN_FD=<fd>:<mrun's pid>" for the ranks */
    int universe;            /* --universe-size; 0: not given */
    char universe_env[32];   /* "RMP_UNIVERSE_SIZE=<n>" for the ranks; "" when inherited */
    char profile_env[4200];  /* --profile[=DIR]: "RMP_PROFILE=1" or "RMP_PROFILE=DIR"; "" */
} mrun_opts_t;

#endif
