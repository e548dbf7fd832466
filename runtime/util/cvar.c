/* cvar.c — the RMP_* knobs as control variables (rmp_cvar_*, what MPI_T's cvars show): their
 * description from knobs.c's table, the values rmp_init validated (before rmp_init: what it
 * would read), and writing the few the runtime reads again at each use. */
#include <string.h>

#include "core.h"

/* The knobs the runtime reads at each use, and where their value lives besides knobs[]. */
static bool cvar_writable(int id)
{
    return id == KNOB_EAGER_LIMIT || id == KNOB_HANG_REPORT || id == KNOB_FINALIZE_TIMEOUT;
}

/* Knobs whose values must agree on every rank (a collective algorithm, a protocol choice):
 * different ones make ranks run different schedules. */
static bool cvar_same_everywhere(int id)
{
    return (id >= KNOB_MCAST && id <= KNOB_COLL_SEGMENT && id != KNOB_MCAST_DROP) ||
           id == KNOB_SHM_COLL || id == KNOB_CM || id == KNOB_CHECK_COLLECTIVES ||
           id == KNOB_RMA_PATH;
}

static const int cvar_type_of[] = {
    [KNOB_BOOL] = RMP_CVAR_BOOL, [KNOB_INT] = RMP_CVAR_INT, [KNOB_SIZE] = RMP_CVAR_SIZE,
    [KNOB_ENUM] = RMP_CVAR_ENUM, [KNOB_STRING] = RMP_CVAR_STRING,
};

int rmp_cvar_count(void)
{
    return KNOB_COUNT;
}

int rmp_cvar_info(int index, rmp_cvar_info_t *info)
{
    if (index < 0 || index >= KNOB_COUNT || !info)
        return RMP_ERR_ARG;
    const knob_t *k = &knob_table[index];
    *info = (rmp_cvar_info_t){.name = k->name, .desc = k->doc, .type = cvar_type_of[k->type],
                              .min = k->min, .max = k->max, .choices = k->set,
                              .writable = cvar_writable(index),
                              .same_everywhere = cvar_same_everywhere(index)};
    return RMP_SUCCESS;
}

int rmp_cvar_read(int index, long long *num, char *text, size_t len)
{
    if (index < 0 || index >= KNOB_COUNT || !num || (text && !len))
        return RMP_ERR_ARG;
    rmp_ctx_t *c = &rmp_ctx;
    int state = atomic_load(&c->state);
    knob_val_t v;
    if (state == 1 || state == 2) {
        ctx_lock(c);
        v = c->cfg.knobs[index];
        ctx_unlock(c);
    } else { /* not yet: what rmp_init would read (a refused value: its default, as there) */
        knob_val_t all[KNOB_COUNT];
        knob_load(all, NULL, 0);
        v = all[index];
    }
    const knob_t *k = &knob_table[index];
    bool has_value = v.set || (k->dflt && k->type != KNOB_STRING);
    *num = k->type == KNOB_STRING ? 0 : has_value ? v.num : -1;
    if (text) {
        size_t n = strnlen(v.text, len - 1);
        memcpy(text, v.text, n);
        text[n] = '\0';
    }
    return RMP_SUCCESS;
}

/* The config field the runtime reads for knob id (lock held). */
static void cvar_apply(config_t *cfg, int id)
{
    const knob_val_t *v = &cfg->knobs[id];
    if (id == KNOB_EAGER_LIMIT)
        cfg->eager_limit = v->set ? (long)v->num : -1;
    else if (id == KNOB_HANG_REPORT)
        cfg->hang_report_s = (long)v->num;
    else if (id == KNOB_FINALIZE_TIMEOUT)
        cfg->finalize_timeout_s = (long)v->num;
}

int rmp_cvar_write(int index, const char *text)
{
    if (index < 0 || index >= KNOB_COUNT || !text)
        return RMP_ERR_ARG;
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!cvar_writable(index))
        return RMP_ERR_ARG;
    const knob_t *k = &knob_table[index];
    knob_val_t v = {0};
    if (*text && knob_parse(k, text, &v, NULL, 0) != 0)
        return RMP_ERR_ARG;
    if (!*text && k->dflt && knob_parse(k, k->dflt, &v, NULL, 0) == 0)
        v.set = false; /* "": back to the default, as an empty variable */
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    c->cfg.knobs[index] = v;
    cvar_apply(&c->cfg, index);
    ctx_unlock(c);
    return RMP_SUCCESS;
}
