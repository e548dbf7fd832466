/* hang.c — the hang report (hang.h): the SIGURG handler, the RMP_HANG_REPORT timer check of
 * progress_wait_until's slow path, and the one line a waiting thread prints about the
 * request it waits for. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hang.h"
#include "objmeta.h"
#include "protocol.h"

_Thread_local hang_slot_t hang_slot;

/* Async-signal-safe state: the handler bumps gen (every waiting thread answers each value
 * once) and reads how many threads wait in rmp and whether the closing barrier runs. */
static atomic_uint report_gen;
static atomic_int waiting;
static atomic_bool fencing;
static int my_rank = -1;

void hang_waiting(int delta)
{
    atomic_store_explicit(&waiting, atomic_load_explicit(&waiting, memory_order_relaxed) + delta,
                          memory_order_relaxed);
}

void hang_in_fence(bool on)
{
    atomic_store(&fencing, on);
}

/* "rmp[R]: hang report: " + text, with write() alone. */
static void say_from_handler(const char *text)
{
    char line[256];
    size_t n = 0;
    const char *pre = "rmp[";
    while (*pre)
        line[n++] = *pre++;
    char digits[12];
    int nd = 0;
    unsigned v = my_rank < 0 ? 0 : (unsigned)my_rank;
    do
        digits[nd++] = (char)('0' + v % 10);
    while ((v /= 10) && nd < 11);
    while (nd)
        line[n++] = digits[--nd];
    for (const char *p = "]: hang report: "; *p;)
        line[n++] = *p++;
    while (*text && n < sizeof(line) - 1)
        line[n++] = *text++;
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w; /* nothing to do about a closed stderr */
}

/* The report request: every thread waiting in rmp answers it from its wait loop (the signal
 * ends a sleep in the thread it lands on; the others wake within a sleep's bound). A rank
 * where no thread waits says so from here: its peers' lines name it as the one missing. */
static void on_report_signal(int sig)
{
    (void)sig;
    int saved = errno;
    atomic_fetch_add(&report_gen, 1);
    if (atomic_load(&fencing))
        say_from_handler("in rmp_finalize's closing barrier, waiting for the ranks that have "
                         "not called rmp_finalize");
    else if (atomic_load(&waiting) == 0)
        say_from_handler("not waiting in rmp (running the program's own code, or blocked "
                         "outside rmp)");
    errno = saved;
}

void hang_init(rmp_ctx_t *c)
{
    my_rank = c->rank;
    struct sigaction old;
    if (sigaction(SIGURG, NULL, &old) != 0)
        return;
    if (!(old.sa_flags & SA_SIGINFO) && (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN ||
                                         old.sa_handler == on_report_signal)) {
        struct sigaction sa = {.sa_handler = on_report_signal, .sa_flags = SA_RESTART};
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGURG, &sa, NULL) != 0)
            core_error(c, "sigaction(SIGURG): %s: no hang report at mrun's --timeout",
                       strerror(errno));
    } else {
        core_verbose(c, "the program handles SIGURG itself: no hang report at mrun's "
                        "--timeout (RMP_HANG_REPORT still works)");
    }
}

bool hang_due(const rmp_ctx_t *c, const hang_wait_t *hw, double stalled_us)
{
    if (atomic_load_explicit(&report_gen, memory_order_relaxed) != hang_slot.gen)
        return true;
    return c->cfg.hang_report_s > 0 && !hw->said &&
           stalled_us >= (double)c->cfg.hang_report_s * 1e6;
}

void hang_comm_name(const comm_t *cm, char *buf, size_t len)
{
    char name[RMP_MAX_OBJECT_NAME];
    if (!objmeta_name(OBJ_COMM, cm->handle, name))
        snprintf(name, sizeof(name), "%s",
                 cm->handle == RMP_COMM_WORLD  ? "RMP_COMM_WORLD"
                 : cm->handle == RMP_COMM_SELF ? "RMP_COMM_SELF"
                                               : "");
    if (name[0])
        snprintf(buf, len, "%s (context %u)", name, cm->ctx_id);
    else
        snprintf(buf, len, "communicator %d (context %u)", cm->handle, cm->ctx_id);
}

void hang_world_of(const comm_t *cm, int r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r >= 0 && r < cm->size && cm->world[r] != r)
        snprintf(buf, len, " (world rank %d)", cm->world[r]);
}

static void describe_p2p(const struct rmp_request *r, char *buf, size_t len)
{
    const comm_t *cm = r->comm;
    char cn[160] = "an unknown communicator", w[40] = "";
    if (cm) {
        hang_comm_name(cm, cn, sizeof(cn));
        hang_world_of(cm, r->peer, w, sizeof(w));
    }
    bool coll = cm && r->ctx_id != cm->ctx_id; /* the collective context: internal traffic */
    char tag[32];
    if (r->tag == RMP_ANY_TAG)
        snprintf(tag, sizeof(tag), "any tag");
    else
        snprintf(tag, sizeof(tag), "%s %d", coll ? "collective" : "tag", r->tag);
    if (r->kind == REQ_RECV) {
        if (r->state == RS_RNDV_GET || r->state == RS_RECV_DATA)
            snprintf(buf, len, "a receive on %s: the data of a matched message from rank %d%s "
                     "(%s), %zu of %zu bytes in", cn, r->peer, w, tag, r->xfer_done,
                     r->xfer_len);
        else if (r->peer == RMP_ANY_SOURCE)
            snprintf(buf, len, "a receive on %s: waiting for a message from any rank (%s)",
                     cn, tag);
        else
            snprintf(buf, len, "a receive on %s: waiting for a message from rank %d%s (%s)", cn,
                     r->peer, w, tag);
    } else if (r->state == RS_RNDV_WAIT_FIN || r->state == RS_STREAM) {
        snprintf(buf, len, "a send of %zu bytes on %s: waiting for rank %d%s to receive it (%s)",
                 r->bytes, cn, r->peer, w, tag);
    } else {
        snprintf(buf, len, "a send of %zu bytes on %s to rank %d%s (%s): waiting for room in "
                 "its queue", r->bytes, cn, r->peer, w, tag);
    }
}

void hang_describe_req(const rmp_ctx_t *c, const struct rmp_request *r, char *buf, size_t len)
{
    (void)c;
    if (r->kind == REQ_COLL && r->coll_describe && r->coll)
        r->coll_describe((struct rmp_request *)r, buf, len);
    else if (r->kind == REQ_RECV || r->kind == REQ_SEND)
        describe_p2p(r, buf, len);
    else if (r->kind == REQ_GREQ)
        snprintf(buf, len, "a generalized request: waiting for the program to complete it");
    else
        snprintf(buf, len, "a nonblocking operation in progress");
}

void hang_pending_p2p(const rmp_ctx_t *c, char *buf, size_t len)
{
    size_t used = 0;
    int shown = 0, more = 0;
    buf[0] = '\0';
    list_t *it, *nx;
    LIST_FOR_EACH_SAFE((list_t *)&c->rndv_active, it, nx) {
        const struct rmp_request *r = LIST_ENTRY(it, struct rmp_request, link);
        if (shown == 3) {
            more++;
            continue;
        }
        char one[400];
        describe_p2p(r, one, sizeof(one));
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", shown ? "; " : "", one);
        shown++;
    }
    for (int p = 0; p < c->npeers && c->outq_pending; p++) {
        int n = 0;
        for (const outq_item_t *q = c->peers[p].outq_head; q; q = q->next)
            n++;
        if (n && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%d packets to world rank %d "
                                     "waiting for room in its queue", used ? "; " : "", n, p);
    }
    if (more && used < len)
        snprintf(buf + used, len - used, "; and %d more", more);
}

void hang_report(rmp_ctx_t *c, hang_wait_t *hw, double stalled_us,
                 const struct rmp_request *req)
{
    hang_slot.gen = atomic_load_explicit(&report_gen, memory_order_relaxed);
    hw->said = true;
    char what[768];
    if (req)
        hang_describe_req(c, req, what, sizeof(what));
    else if (hang_slot.what)
        hang_slot.what(hang_slot.what_arg, what, sizeof(what));
    else
        snprintf(what, sizeof(what), "waiting for one of several requests");
    core_error(c, "hang report: in %s for %.1f s without progress: %s",
               hang_slot.call ? hang_slot.call : "rmp", stalled_us / 1e6, what);
}
