/* prof_summary.c — summary.txt, the profile's tables in text as mpiP prints them: the job,
 * time per call (aggregate, then per rank for the top calls), traffic by protocol and by
 * transport, the busiest pairs, the message sizes and the collectives per communicator. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "prof.h"

static const char *const proto_name[PROF_NPROTO] = {"eager", "rendezvous", "rdma", "one-sided"};

typedef struct call_row {
    int id;
    uint64_t calls, ns, bytes;
} call_row_t;

static int by_time(const void *a, const void *b)
{
    const call_row_t *x = a, *y = b;
    return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : x->id - y->id;
}

static void sum_job(const prof_job_t *j, FILE *f)
{
    fprintf(f, "@ rmp profile: %d rank(s)", j->size);
    if (j->missing) {
        fprintf(f, ", PARTIAL: %d missing (", j->missing);
        for (int r = 0, n = 0; r < j->size; r++)
            if (!j->blob[r])
                fprintf(f, "%s%d", n++ ? " " : "", r);
        fputs(")", f);
    }
    uint64_t wall = j->blob[0] ? j->blob[0]->wall_ns : 0;
    fprintf(f, "\n@ wall time (rank 0, init to finalize): %.6f s\n", wall * 1e-9);
    uint32_t sample = j->blob[0] ? j->blob[0]->sample : 1;
    if (sample > 1)
        fprintf(f, "@ call times: estimated from 1 call in %u (a clock read costs %.0f ns "
                   "here); collectives: every call\n", sample, j->clock_ns);
    fputs("@ transports:", f);
    for (int i = 0; i < j->c->ntps; i++)
        fprintf(f, " %s", j->c->tps[i]->ops->name);
    fputs("\n@ settings:", f);
    int n = 0;
    for (int i = 0; i < KNOB_COUNT; i++)
        if (j->c->cfg.knobs[i].set)
            fprintf(f, " %s=%s", knob_table[i].name, j->c->cfg.knobs[i].text), n++;
    fputs(n ? "\n" : " (all defaults)\n", f);
}

static void sum_calls(const prof_job_t *j, FILE *f)
{
    call_row_t *rows = calloc(RMP_PROF_MAX_CALLS, sizeof(*rows));
    int n = 0;
    uint64_t all = 0;
    for (int id = 0; rows && id < RMP_PROF_MAX_CALLS; id++) {
        call_row_t r = {.id = id};
        for (int q = 0; q < j->size; q++)
            if (j->blob[q]) {
                r.calls += j->blob[q]->call[id].calls;
                r.ns += j->blob[q]->call[id].ns;
                r.bytes += j->blob[q]->call[id].bytes;
            }
        if (r.calls)
            rows[n++] = r, all += r.ns;
    }
    if (rows)
        qsort(rows, (size_t)n, sizeof(*rows), by_time);
    fputs("\n@--- Aggregate time per call (all ranks) ------------------------------------\n", f);
    fprintf(f, "%-28s %12s %14s %12s %16s %7s\n", "Call", "Calls", "Time (ms)", "Avg (us)",
            "Bytes sent", "Time%");
    for (int i = 0; i < n; i++) {
        const call_row_t *r = &rows[i];
        fprintf(f, "%-28s %12llu %14.3f %12.3f %16llu %7.2f\n",
                j->names && j->names[r->id] ? j->names[r->id] : "?",
                (unsigned long long)r->calls, r->ns * 1e-6, r->ns * 1e-3 / (double)r->calls,
                (unsigned long long)r->bytes, all ? 100.0 * (double)r->ns / (double)all : 0.0);
    }
    fputs("\n@--- Time per call per rank (the 5 costliest calls) --------------------------\n",
          f);
    fprintf(f, "%-28s %6s %12s %14s %16s\n", "Call", "Rank", "Calls", "Time (ms)", "Bytes sent");
    for (int i = 0; i < n && i < 5; i++)
        for (int q = 0; q < j->size; q++) {
            const prof_call_t *k = j->blob[q] ? &j->blob[q]->call[rows[i].id] : NULL;
            if (k && k->calls)
                fprintf(f, "%-28s %6d %12llu %14.3f %16llu\n",
                        j->names && j->names[rows[i].id] ? j->names[rows[i].id] : "?", q,
                        (unsigned long long)k->calls, k->ns * 1e-6,
                        (unsigned long long)k->bytes);
        }
    free(rows);
}

static void sum_traffic(const prof_job_t *j, FILE *f)
{
    uint64_t pm[PROF_NPROTO][2] = {{0}}, tm[3][2] = {{0}};
    for (int r = 0; r < j->size; r++)
        for (int d = 0; j->blob[r] && d < j->size; d++) {
            int t = r == d ? 0 : !j->c->node || j->c->node[r] == j->c->node[d] ? 1 : 2;
            for (int k = 0; k < PROF_NPROTO; k++) {
                const uint64_t *e = j->blob[r]->peer[d][k];
                pm[k][0] += e[0], pm[k][1] += e[1];
                tm[t][0] += e[0], tm[t][1] += e[1];
            }
        }
    fputs("\n@--- Traffic by protocol ----------------------------------------------------\n", f);
    fprintf(f, "%-12s %14s %18s\n", "Protocol", "Messages", "Bytes");
    for (int k = 0; k < PROF_NPROTO; k++)
        fprintf(f, "%-12s %14llu %18llu\n", proto_name[k], (unsigned long long)pm[k][0],
                (unsigned long long)pm[k][1]);
    static const char *const tpn[3] = {"self", "shm", "verbs"};
    fputs("\n@--- Traffic by transport (self: a rank to itself; shm: one node; verbs: "
          "between nodes)\n", f);
    fprintf(f, "%-12s %14s %18s\n", "Transport", "Messages", "Bytes");
    for (int t = 0; t < 3; t++)
        fprintf(f, "%-12s %14llu %18llu\n", tpn[t], (unsigned long long)tm[t][0],
                (unsigned long long)tm[t][1]);
}

static void sum_sizes(const prof_job_t *j, FILE *f)
{
    fputs("\n@--- Message sizes (all ranks, messages sent) --------------------------------\n",
          f);
    fprintf(f, "%-24s %14s\n", "Size (bytes)", "Messages");
    for (int b = 0; b < PROF_NBUCKETS; b++) {
        uint64_t n = 0;
        for (int r = 0; r < j->size; r++)
            n += j->blob[r] ? j->blob[r]->hist[b] : 0;
        if (!n)
            continue;
        char range[48];
        if (b <= 1)
            snprintf(range, sizeof(range), "%d", b);
        else
            snprintf(range, sizeof(range), "%llu-%llu", 1ull << (b - 1), (1ull << b) - 1);
        fprintf(f, "%-24s %14llu\n", range, (unsigned long long)n);
    }
}

static void sum_colls(const prof_job_t *j, FILE *f)
{
    fputs("\n@--- Collectives per communicator (imbalance: a rank's time in them less the "
          "fastest rank's)\n", f);
    fprintf(f, "%-10s %6s %6s %10s %14s %14s  %s\n", "Context", "Size", "Rank", "Calls",
            "Time (ms)", "Imbal. (ms)", "Algorithms");
    for (int r = 0; r < j->size; r++)
        for (int i = 0; j->blob[r] && i <= PROF_MAX_COMMS; i++) {
            const prof_comm_t *s = &j->blob[r]->comm[i];
            if (!s->calls)
                continue;
            uint64_t tmin = s->ns;
            for (int q = 0; q < j->size; q++)
                for (int k = 0; j->blob[q] && k <= PROF_MAX_COMMS; k++) {
                    const prof_comm_t *o = &j->blob[q]->comm[k];
                    if (o->calls && o->ctx_id == s->ctx_id && o->size == s->size && o->ns < tmin)
                        tmin = o->ns;
                }
            fprintf(f, "%-10u %6d %6d %10llu %14.3f %14.3f  %s\n", s->ctx_id, s->size, r,
                    (unsigned long long)s->calls, s->ns * 1e-6, (s->ns - tmin) * 1e-6,
                    *s->algs ? s->algs : "-");
        }
}

void prof_summary(const prof_job_t *j, FILE *f)
{
    sum_job(j, f);
    sum_calls(j, f);
    sum_traffic(j, f);
    sum_sizes(j, f);
    sum_colls(j, f);
}
