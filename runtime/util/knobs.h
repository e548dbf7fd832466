/* knobs.h — every RMP_* environment variable in one table, parsed by one parser: a knob has a
 * name, a type, the values it accepts, a default and a line of documentation. rmp_init loads
 * them all at once (knob_load) and refuses the job on the first invalid value; the runtime then
 * reads the validated values (kept in its context), never getenv. Depends on libc only. */
#ifndef RMP_KNOBS_H
#define RMP_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    KNOB_BOOL,   /* 0 or 1 */
    KNOB_INT,    /* decimal integer in [min, max] */
    KNOB_SIZE,   /* bytes in [min, max], decimal with an optional k, m or g suffix (x 1024^n) */
    KNOB_ENUM,   /* one of the strings in set */
    KNOB_STRING, /* free text, checked by check() when there is one */
} knob_type_t;

/* The knobs, in table order (knob_table[id]). */
typedef enum {
    KNOB_VERBOSE, KNOB_TRANSPORT, KNOB_EAGER_LIMIT, KNOB_CMA, KNOB_SHM_RING_KB, KNOB_SHM_COLL,
    KNOB_SHM_COOP,
    KNOB_SPIN_US,
    KNOB_PROGRESS_THREAD,
    KNOB_DEVICE, KNOB_GID_INDEX, KNOB_CM, KNOB_CONNECT, KNOB_VERBS_SRQ, KNOB_VERBS_TIMEOUT,
    KNOB_VERBS_KEEPALIVE, KNOB_VERBS_FAULT, KNOB_VERBS_FASTPATH, KNOB_VERBS_FASTPATH_PEERS,
    KNOB_VERBS_FASTPATH_AFTER, KNOB_REG_CACHE,
    KNOB_MCAST, KNOB_MCAST_DROP, KNOB_COLL_OFFLOAD,
    KNOB_COLL_BARRIER, KNOB_COLL_BCAST, KNOB_COLL_REDUCE, KNOB_COLL_ALLREDUCE, KNOB_COLL_GATHER,
    KNOB_COLL_SCATTER, KNOB_COLL_ALLGATHER, KNOB_COLL_ALLTOALL, KNOB_COLL_REDUCE_SCATTER,
    KNOB_COLL_BCAST_LARGE, KNOB_COLL_REDUCE_LARGE, KNOB_COLL_ALLREDUCE_LARGE,
    KNOB_COLL_GATHER_LARGE, KNOB_COLL_SCATTER_LARGE, KNOB_COLL_ALLGATHER_LARGE,
    KNOB_COLL_ALLTOALL_SMALL, KNOB_COLL_ALLTOALL_LARGE, KNOB_COLL_REDUCE_SCATTER_LARGE,
    KNOB_COLL_SEGMENT,
    KNOB_HANG_REPORT, KNOB_CHECK_COLLECTIVES, KNOB_FINALIZE_TIMEOUT, KNOB_RMA_PATH,
    KNOB_PORT_TIMEOUT, KNOB_UNIVERSE_SIZE,
    KNOB_PROFILE,
    KNOB_COUNT
} knob_id_t;

#define KNOB_TEXT_MAX 128 /* longest value kept (longer ones are refused) */

typedef struct knob {
    const char *name;
    knob_type_t type;
    long long min, max;      /* KNOB_INT, KNOB_SIZE */
    const char *const *set;  /* KNOB_ENUM: NULL-terminated */
    bool (*check)(const char *text); /* KNOB_STRING: is the text valid? (NULL: any is) */
    const char *expect;      /* KNOB_STRING: what check() accepts, for the message */
    const char *dflt;        /* the value when unset; NULL: the runtime decides (see doc) */
    const char *doc;         /* one line, for README.md and RMP_VERBOSE */
} knob_t;

typedef struct knob_val {
    bool set;                /* the variable was set (to a non-empty value) */
    long long num;           /* BOOL, INT, SIZE: the number; ENUM: the index in set */
    char text[KNOB_TEXT_MAX]; /* the value as given ("" when unset) */
} knob_val_t;

extern const knob_t knob_table[KNOB_COUNT];

/* The knob called `name` ("RMP_..."), or NULL. */
const knob_t *knob_find(const char *name);

/* Parses `text` as a value of k into *out (no getenv; out->set is true). On a refused value
 * returns -1 and writes the one-line reason into err ("RMP_X=v is not valid: expected ...");
 * 0 otherwise. err may be NULL. */
int knob_parse(const knob_t *k, const char *text, knob_val_t *out, char *err, size_t errlen);

/* Reads every knob from the environment into vals[id] (an empty value counts as unset and
 * takes the default). 0, or -1 with the first invalid one's reason in err; every value is
 * filled either way (invalid ones with their default). The runtime keeps vals in its context
 * (rmp_ctx.cfg.knobs): no state here. */
int knob_load(knob_val_t vals[KNOB_COUNT], char *err, size_t errlen);

/* The value in vals of the knob called `name`, NULL if there is no such knob. */
const knob_val_t *knob_lookup(const knob_val_t vals[KNOB_COUNT], const char *name);

/* The knob an unknown variable name most likely misspells (a letter or two off, or the same
 * but for underscores and case), or NULL. */
const knob_t *knob_suggest(const char *name);

/* Calls say() with one warning line for each RMP_* variable in the environment that is no
 * knob but looks like a typo of one. Returns how many. */
int knob_warn_typos(void (*say)(const char *line));

#endif
