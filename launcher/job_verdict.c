/* job_verdict.c — how mrun judges each rank's end: reaped, a clean exit or a failure, and a
 * failure that is a peer's consequence held until that peer's own verdict, so that the first
 * cause is blamed and reported once. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "job_int.h"
#include "procs.h"

void job_fail_uninit(job_t *job, int r)
{
    job_fail(job, 1, "rank %d exited without calling rmp_init while other ranks did; "
             "terminating the job", r);
}

/* An abort code becomes mrun's status as it does a rank's own exit status (rmp_abort in the
 * runtime): its low 8 bits, as mpirun reports it, except that an abort never reads as a
 * success: 0 (and any multiple of 256) gives 1. */
int job_abort_status(int code) { return (code & 255) ? (code & 255) : 1; }

static bool rank_initialized(const rank_t *rk) { return rk->st.init || rk->connected; }

/* What rank r's end (it has been reaped) says: RV_FAIL with status and msg, RV_OK, or RV_LATER
 * while a plain PMIx client's "finalized" may still come. late: stop waiting for it. */
static rank_verdict_t rank_verdict(job_t *job, int r, bool late, int *status, char *msg,
                                   size_t len)
{
    rank_t *rk = &job->ranks[r];
    int ws = rk->wstatus;
    if (rk->st.aborted) {
        *status = job_abort_status(rk->st.abort_code);
        snprintf(msg, len, "rank %d called rmp_abort with code %d; terminating the job", r,
                 rk->st.abort_code);
    } else if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        *status = 128 + sig;
        snprintf(msg, len, "rank %d (pid %d) killed by signal %d (%s); terminating the job", r,
                 (int)rk->pid, sig, strsignal(sig));
    } else if (WEXITSTATUS(ws) != 0) {
        *status = WEXITSTATUS(ws);
        snprintf(msg, len, "rank %d (pid %d) exited with status %d; terminating the job", r,
                 (int)rk->pid, WEXITSTATUS(ws));
    } else if (rank_initialized(rk) && !rk->st.fin && !rk->finalized) {
        /* An rmp rank's own channel is the truth; a plain PMIx client has only the upcall. */
        if (!rk->st.init && !late)
            return RV_LATER;
        *status = 1; /* its peers would wait for it in their next fence for ever */
        snprintf(msg, len, "rank %d exited without calling rmp_finalize; terminating the job",
                 r);
    } else {
        return RV_OK;
    }
    return RV_FAIL;
}

/* Holds rank r's failure (status, msg): a consequence of its peer's, whose verdict is not in. */
static void hold(job_t *job, int r, int status, const char *msg)
{
    rank_t *rk = &job->ranks[r];
    job->nheld++; /* judged once: never held twice */
    snprintf(rk->held_msg, sizeof rk->held_msg, "%s", msg);
    rk->held_status = status;
    rk->held_at = job_now_ms() + BLAME_MS;
}

/* Rank r's held failure is blamed: the job fails with it. */
void job_fail_held(job_t *job, int r)
{
    job_fail(job, job->ranks[r].held_status, "%s", job->ranks[r].held_msg);
}

/* The held rank that blamed peer p first (the earliest hold), or -1. */
static int first_holder(const job_t *job, int p)
{
    int first = -1;
    for (int c = 0; job->nheld > 0 && c < job->nprocs; c++)
        if (job->ranks[c].held_at && job->ranks[c].st.saw_peer == p &&
            (first < 0 || job->ranks[c].held_at < job->ranks[first].held_at))
            first = c;
    return first;
}

/* The last held link of the chain of blame from held rank r (r blamed a peer that is itself
 * held, and so on): the one nearest the cause. r itself if the chain comes back to it. */
int job_chain_end(const job_t *job, int r)
{
    int end = r;
    for (int steps = 0; steps < job->nprocs; steps++) {
        int p = job->ranks[end].st.saw_peer;
        if (p < 0 || p == end || !job->ranks[p].held_at)
            return end;
        end = p;
    }
    return r; /* a cycle: nobody nearer the cause than the first hold */
}

/* Judges a reaped rank (or one whose late wait ended). */
void job_judge(job_t *job, int r, bool late)
{
    rank_t *rk = &job->ranks[r];
    if (job->failed)
        return;
    int status = 0;
    char msg[256];
    rank_verdict_t v = rank_verdict(job, r, late, &status, msg, sizeof msg);
    if (v == RV_LATER) {
        rk->late_at = job_now_ms() + LATE_MS;
        return;
    }
    rk->late_at = 0;
    rk->judged = true;
    if (v == RV_OK) {
        if (!rank_initialized(rk) && job->any_connected) {
            job_fail_uninit(job, r); /* PMIx fences hang when a participant dies before PMIx_Init */
        } else if (!rank_initialized(rk) && job->clean_uninit < 0) {
            job->clean_uninit = r; /* fine for a plain program, a failure once any rank connects */
        } else {
            int h = first_holder(job, r); /* r ended cleanly: who blamed it failed alone */
            if (h >= 0)
                job_fail_held(job, h);
        }
        return;
    }
    /* Held while p's verdict is not in: p may be alive, reaped in the same batch (mrun was
     * not scheduled between the exits) and judged after r, waiting for PMIx, or held itself. */
    int p = rk->st.saw_peer;
    if (p >= 0 && p != r && (!job->ranks[p].judged || job->ranks[p].held_at)) {
        if (job->ranks[p].held_at && job->ranks[p].st.saw_peer == r)
            job_fail_held(job, p); /* each blames the other: the one that ended first */
        else
            hold(job, r, status, msg);
        return;
    }
    job_fail(job, status, "%s", msg);
}

/* Takes up to `max` exited ranks into reaped[] (after reading what each reported); returns
 * how many. */
static int reap_some(job_t *job, int *reaped, int max)
{
    int n = 0;
    while (n < max) {
        int wstatus;
        pid_t pid = waitpid(-1, &wstatus, WNOHANG);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0 && errno != ECHILD)
            fprintf(stderr, "mrun: waitpid failed: %s\n", strerror(errno));
        if (pid <= 0)
            break;
        for (int r = 0; !job_sub_reaped(job, pid) && r < job->nprocs; r++) {
            rank_t *rk = &job->ranks[r];
            if (rk->pid == pid && rk->alive) {
                rk->alive = false;
                rk->wstatus = wstatus;
                job->nalive--;
                rankstat_pump(&rk->st, job->nprocs); /* all it wrote is in the pipe now */
                reaped[n++] = r;
                break;
            }
        }
    }
    return n;
}

/* Takes every exited rank, reads what it reported, then judges them: the deaths by signal
 * first, since a rank that exited with an error in the same instant more likely reacted to
 * one of them than caused it. In batches, until none is left: SIGCHLDs coalesce, so no
 * later wake-up would come for a child left unreaped. */
void job_reap(job_t *job)
{
    enum { BATCH = 64 };
    int reaped[BATCH], n;
    do {
        n = reap_some(job, reaped, BATCH);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < n; i++)
                if (WIFSIGNALED(job->ranks[reaped[i]].wstatus) == (pass == 0))
                    job_judge(job, reaped[i], false);
    } while (n == BATCH);
}
