/* layout.c: the virtual-node layout of a job: which node each rank is on, the node host names,
 * and the peer lists and maps PMIx needs. Rank lists are explicit: PMIx 4.2.2 does not expand
 * ranges like "0-3" in a proc map. */
#include "layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { RANK_CHARS = 12 }; /* an int rank and its separator */

int layout_node_size(const layout_t *l, int node)
{
    return l->nprocs / l->nnodes + (node < l->nprocs % l->nnodes);
}

int layout_node_first(const layout_t *l, int node)
{
    int q = l->nprocs / l->nnodes, r = l->nprocs % l->nnodes;
    return node * q + (node < r ? node : r);
}

int layout_node_of(const layout_t *l, int rank)
{
    int q = l->nprocs / l->nnodes, r = l->nprocs % l->nnodes;
    int big = r * (q + 1); /* ranks held by the r nodes that have q+1 */
    return rank < big ? rank / (q + 1) : r + (rank - big) / q;
}

/* The host name as PMIx itself would report it: without the domain, unless it's an address. */
static int short_hostname(char *buf, size_t size)
{
    if (gethostname(buf, size - 1) != 0)
        return -1;
    buf[size - 1] = '\0';
    if (strspn(buf, "0123456789.") != strlen(buf))
        buf[strcspn(buf, ".")] = '\0';
    return 0;
}

int layout_init(layout_t *l, int nprocs, int nnodes)
{
    char host[256];
    *l = (layout_t){.nprocs = nprocs, .nnodes = nnodes};
    if (short_hostname(host, sizeof host) != 0) {
        fprintf(stderr, "mrun: gethostname failed: %s\n", strerror(errno));
        return -1;
    }
    if (!(l->hosts = calloc((size_t)nnodes, sizeof *l->hosts)))
        goto nomem;
    for (int i = 0; i < nnodes; i++) {
        size_t len = strlen(host) + 16;
        if (!(l->hosts[i] = malloc(len)))
            goto nomem;
        if (nnodes == 1)
            snprintf(l->hosts[i], len, "%s", host);
        else
            snprintf(l->hosts[i], len, "%s-vn%d", host, i);
    }
    return 0;
nomem:
    fprintf(stderr, "mrun: out of memory laying out %d ranks on %d nodes\n", nprocs, nnodes);
    layout_free(l);
    return -1;
}

void layout_free(layout_t *l)
{
    for (int i = 0; l->hosts && i < l->nnodes; i++)
        free(l->hosts[i]);
    free(l->hosts);
    l->hosts = NULL;
}

/* Appends the node's ranks, comma-separated, at p; returns the new end. */
static char *put_peers(char *p, const layout_t *l, int node)
{
    int first = layout_node_first(l, node), n = layout_node_size(l, node);
    for (int r = first; r < first + n; r++)
        p += sprintf(p, r == first ? "%d" : ",%d", r);
    return p;
}

char *layout_peers(const layout_t *l, int node)
{
    char *s = malloc((size_t)layout_node_size(l, node) * RANK_CHARS + 1);
    if (s)
        *put_peers(s, l, node) = '\0';
    return s;
}

char *layout_ppn(const layout_t *l)
{
    char *s = malloc((size_t)l->nprocs * RANK_CHARS + 1), *p = s;
    for (int node = 0; s && node < l->nnodes; node++) {
        if (node > 0)
            *p++ = ';';
        p = put_peers(p, l, node);
    }
    if (s)
        *p = '\0';
    return s;
}

char *layout_hosts(const layout_t *l)
{
    size_t len = 1;
    for (int i = 0; i < l->nnodes; i++)
        len += strlen(l->hosts[i]) + 1;
    char *s = malloc(len), *p = s;
    for (int i = 0; s && i < l->nnodes; i++)
        p += sprintf(p, i ? ",%s" : "%s", l->hosts[i]);
    if (s)
        *p = '\0';
    return s;
}
