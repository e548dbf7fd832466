/* rankstat.h: the channel by which an rmp rank tells mrun what it did, in an order mrun
 * controls: the rank writes short lines into a pipe inherited from mrun (fd and mrun's pid in
 * RMP_MRUN_FD), so everything it wrote is readable when mrun reaps it. PMIx's own upcalls can
 * arrive after the rank is gone (shared/notes: measured), so a verdict cannot rest on them. */
#ifndef MRUN_RANKSTAT_H
#define MRUN_RANKSTAT_H

#include <stdbool.h>

/* The lines, one per event: "I" rmp_init done, "F" rmp_finalize called, "A <code>" rmp_abort
 * called, "P <rank>" this rank saw world rank <rank> fail (its errors that follow are a
 * consequence). The fd number the rank finds its end at: */
#define RANKSTAT_FD 3

typedef struct rankstat {
    int fd;             /* read end; -1 once closed */
    char buf[64];       /* a partial line */
    int len;
    bool init, fin;     /* "I", "F" seen */
    bool aborted;       /* "A" seen, with abort_code */
    int abort_code;
    int saw_peer;       /* first "P": the rank whose failure this one saw; -1 none */
} rankstat_t;

void rankstat_init(rankstat_t *st, int fd);
/* Reads what is available (non-blocking) and applies every complete line; closes at EOF. */
void rankstat_pump(rankstat_t *st, int nprocs);
/* Applies bytes as if read (what rankstat_pump does with them; exposed for the fuzz target). */
void rankstat_feed(rankstat_t *st, const char *data, int n, int nprocs);
void rankstat_close(rankstat_t *st);

#endif
