/* prof_report.c — profile.json, the gathered profile (prof.h) with every number, sparse
 * where a matrix would be mostly zeros (so that 1024 ranks stay a few MB); report.html
 * (prof_html.c) embeds the same text. prof.c writes the files. */
#include <string.h>

#include "core.h"
#include "prof.h"

static const char *const proto_name[PROF_NPROTO] = {"eager", "rendezvous", "rdma", "one-sided"};

/* A JSON string; <, > and & escaped too, so that the text may sit inside an HTML script. */
static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&')
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static const char *call_name(const prof_job_t *j, int id)
{
    return j->names && j->names[id] ? j->names[id] : "?";
}

static void json_settings(const prof_job_t *j, FILE *f)
{
    fputs(",\n\"settings\":{", f);
    int n = 0;
    for (int i = 0; i < KNOB_COUNT; i++) {
        const knob_val_t *v = &j->c->cfg.knobs[i];
        if (!v->set)
            continue;
        fputs(n++ ? "," : "", f);
        jstr(f, knob_table[i].name);
        fputc(':', f);
        jstr(f, v->text);
    }
    fputs("},\n\"transports\":[", f);
    for (int i = 0; i < j->c->ntps; i++) {
        fputs(i ? "," : "", f);
        jstr(f, j->c->tps[i]->ops->name);
    }
    fputs("],\n\"device\":", f);
    jstr(f, j->c->cfg.knobs[KNOB_DEVICE].set ? j->c->cfg.knobs[KNOB_DEVICE].text : "auto");
}

static void json_ranks(const prof_job_t *j, FILE *f)
{
    fprintf(f, "{\"version\":1,\"ranks\":%d,\"missing\":[", j->size);
    for (int r = 0, n = 0; r < j->size; r++)
        if (!j->blob[r])
            fprintf(f, "%s%d", n++ ? "," : "", r);
    fputs("],\n\"nodes\":[", f);
    for (int r = 0; r < j->size; r++)
        fprintf(f, "%s%d", r ? "," : "", j->c->node ? j->c->node[r] : 0);
    fputs("],\n\"wall_ns\":[", f);
    for (int r = 0; r < j->size; r++)
        fprintf(f, "%s%llu", r ? "," : "",
                j->blob[r] ? (unsigned long long)j->blob[r]->wall_ns : 0ull);
    fprintf(f, "],\n\"time_sample\":%u,\"clock_ns\":%.1f", j->blob[0] ? j->blob[0]->sample : 1,
            j->clock_ns);
    fputs(",\n\"protocols\":[", f);
    for (int k = 0; k < PROF_NPROTO; k++)
        fprintf(f, "%s\"%s\"", k ? "," : "", proto_name[k]);
    fputs("]", f);
}

/* [src, dst, protocol index, messages, bytes] for each pair and protocol that carried any. */
static void json_traffic(const prof_job_t *j, FILE *f)
{
    fputs(",\n\"traffic\":[", f);
    int n = 0;
    for (int r = 0; r < j->size; r++)
        for (int d = 0; j->blob[r] && d < j->size; d++)
            for (int k = 0; k < PROF_NPROTO; k++) {
                const uint64_t *e = j->blob[r]->peer[d][k];
                if (e[0])
                    fprintf(f, "%s\n[%d,%d,%d,%llu,%llu]", n++ ? "," : "", r, d, k,
                            (unsigned long long)e[0], (unsigned long long)e[1]);
            }
    fputs("]", f);
}

static void json_calls(const prof_job_t *j, FILE *f)
{
    fputs(",\n\"calls\":[", f);
    int n = 0;
    for (int id = 0; id < RMP_PROF_MAX_CALLS; id++) {
        uint64_t any = 0;
        for (int r = 0; r < j->size; r++)
            any += j->blob[r] ? j->blob[r]->call[id].calls : 0;
        if (!any)
            continue;
        fputs(n++ ? ",\n{\"name\":" : "\n{\"name\":", f);
        jstr(f, call_name(j, id));
        static const char *const field[] = {"calls", "time_ns", "bytes"};
        for (int x = 0; x < 3; x++) {
            fprintf(f, ",\"%s\":[", field[x]);
            for (int r = 0; r < j->size; r++) {
                const prof_call_t *k = j->blob[r] ? &j->blob[r]->call[id] : NULL;
                uint64_t v = !k ? 0 : x == 0 ? k->calls : x == 1 ? k->ns : k->bytes;
                fprintf(f, "%s%llu", r ? "," : "", (unsigned long long)v);
            }
            fputc(']', f);
        }
        fputc('}', f);
    }
    fputs("]", f);
}

static void json_hist(const prof_job_t *j, FILE *f)
{
    fputs(",\n\"histogram\":{\"bucket_min\":[", f);
    for (int b = 0; b < PROF_NBUCKETS; b++)
        fprintf(f, "%s%llu", b ? "," : "", b ? 1ull << (b - 1) : 0ull);
    fputs("],\"per_rank\":[", f);
    for (int r = 0; r < j->size; r++) {
        fputs(r ? ",\n[" : "\n[", f);
        for (int b = 0; b < PROF_NBUCKETS; b++)
            fprintf(f, "%s%llu", b ? "," : "",
                    j->blob[r] ? (unsigned long long)j->blob[r]->hist[b] : 0ull);
        fputc(']', f);
    }
    fputs("]}", f);
}

/* One communicator's collectives across the ranks that have it (key: context id and size).
 * The imbalance is each rank's total time in them less the fastest rank's: a rank that
 * arrives early waits for the last one inside the call, so its surplus over the rank that
 * waited least is that waiting, summed over the calls (cheap: no clock read on the
 * message path, no per-call record). */
static void json_comm(const prof_job_t *j, FILE *f, const prof_comm_t *key, int n)
{
    fprintf(f, "%s\n{\"ctx_id\":%u,\"size\":%d,\"algorithms\":", n ? "," : "", key->ctx_id,
            key->size);
    char algs[PROF_ALG_LEN * 4] = "";
    uint64_t calls = 0, bytes = 0, tmin = UINT64_MAX;
    fputs("", f);
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            fputs(",\"ranks\":[", f);
        for (int r = 0, m = 0; r < j->size; r++) {
            for (int i = 0; j->blob[r] && i <= PROF_MAX_COMMS; i++) {
                const prof_comm_t *s = &j->blob[r]->comm[i];
                if (!s->calls || s->ctx_id != key->ctx_id || s->size != key->size)
                    continue;
                if (!pass) {
                    calls = s->calls > calls ? s->calls : calls;
                    bytes += s->bytes;
                    tmin = s->ns < tmin ? s->ns : tmin;
                    if (!strstr(algs, s->algs) && strlen(algs) + strlen(s->algs) + 2 < sizeof(algs))
                        strcat(strcat(algs, *algs ? " " : ""), s->algs);
                } else
                    fprintf(f, "%s[%d,%llu,%llu,%llu]", m++ ? "," : "", r,
                            (unsigned long long)s->calls, (unsigned long long)s->ns,
                            (unsigned long long)(s->ns - tmin));
            }
        }
        if (!pass) {
            jstr(f, algs);
            fprintf(f, ",\"calls\":%llu,\"bytes\":%llu", (unsigned long long)calls,
                    (unsigned long long)bytes);
        }
    }
    fputs("]}", f);
}

/* Communicators in first-seen order, each once. */
static void json_comms(const prof_job_t *j, FILE *f)
{
    fputs(",\n\"collectives\":[", f);
    int n = 0;
    for (int r = 0; r < j->size; r++)
        for (int i = 0; j->blob[r] && i <= PROF_MAX_COMMS; i++) {
            const prof_comm_t *s = &j->blob[r]->comm[i];
            bool seen = !s->calls;
            for (int q = 0; !seen && q < r; q++)
                for (int k = 0; j->blob[q] && k <= PROF_MAX_COMMS && !seen; k++)
                    seen = j->blob[q]->comm[k].calls && j->blob[q]->comm[k].ctx_id == s->ctx_id &&
                           j->blob[q]->comm[k].size == s->size;
            for (int k = 0; k < i && !seen; k++)
                seen = j->blob[r]->comm[k].ctx_id == s->ctx_id && j->blob[r]->comm[k].size == s->size;
            if (!seen)
                json_comm(j, f, s, n++);
        }
    fputs("]", f);
}

void prof_json(const prof_job_t *j, FILE *f)
{
    json_ranks(j, f);
    json_settings(j, f);
    json_traffic(j, f);
    json_calls(j, f);
    json_hist(j, f);
    json_comms(j, f);
    fputs("}\n", f);
}
