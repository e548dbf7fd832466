/* spawn_multi.c — the script rmp_comm_spawn_multiple's one launcher runs for every child: the
 * children of all apps share one world (one mrun -n total), and each rank execs its own app
 * (exec keeps the process, so the launcher's PMIx connection is the app's). Every word is
 * single-quoted: commands, arguments, directories and values reach the apps unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spawn.h"

typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool oom;
} sbuf_t;

static void put(sbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

/* s as one single-quoted shell word, then a space. */
static void word(sbuf_t *b, const char *s)
{
    put(b, "'");
    for (const char *q; (q = strchr(s, '\'')); s = q + 1) {
        char part[256];
        size_t n = (size_t)(q - s);
        while (n >= sizeof part) { /* (long runs without a quote) */
            memcpy(part, s, sizeof part - 1);
            part[sizeof part - 1] = '\0';
            put(b, part);
            s += sizeof part - 1;
            n -= sizeof part - 1;
        }
        memcpy(part, s, n);
        part[n] = '\0';
        put(b, part);
        put(b, "'\\''");
    }
    put(b, s);
    put(b, "' ");
}

char *spawn_script(const spawn_app_t *apps, int count)
{
    sbuf_t b = {0};
    int end = 0;
    char num[64];
    for (int i = 0; i < count; i++) {
        const spawn_app_t *a = &apps[i];
        end += a->maxprocs;
        snprintf(num, sizeof num, "if [ \"$PMIX_RANK\" -lt %d ]; then RMP_APPNUM=%d; ", end, i);
        put(&b, num);
        put(&b, "export RMP_APPNUM; ");
        if (a->wdir[0]) {
            put(&b, "cd ");
            word(&b, a->wdir);
            put(&b, "|| exit 126; ");
        }
        char *env = strdup(a->env), *save = NULL;
        for (char *e = env ? strtok_r(env, "\n", &save) : NULL; e;
             e = strtok_r(NULL, "\n", &save))
            if (strchr(e, '=')) {
                put(&b, "export ");
                word(&b, e);
                put(&b, "; ");
            }
        free(env);
        put(&b, "exec ");
        word(&b, a->exe);
        for (int k = 0; a->argv && a->argv[k]; k++)
            word(&b, a->argv[k]);
        put(&b, "; fi; ");
    }
    put(&b, "exit 127");
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
