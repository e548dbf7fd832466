/* layout.h: how mrun spreads N ranks over K virtual nodes (--nodes K): contiguous blocks, the
 * first N%K nodes one rank bigger so no node is empty, each node with its own host name. */
#ifndef MRUN_LAYOUT_H
#define MRUN_LAYOUT_H

typedef struct layout {
    int nprocs, nnodes;
    char **hosts; /* per node: the real short host name, or "<host>-vn<i>" when nnodes > 1 */
} layout_t;

/* Returns 0, or -1 after printing why. */
int layout_init(layout_t *l, int nprocs, int nnodes);
void layout_free(layout_t *l);

int layout_node_of(const layout_t *l, int rank);
int layout_node_first(const layout_t *l, int node);
int layout_node_size(const layout_t *l, int node);

/* malloc'd strings in the forms PMIx wants (NULL when out of memory): */
char *layout_peers(const layout_t *l, int node); /* "4,5,6": the ranks on the node */
char *layout_hosts(const layout_t *l);           /* "h-vn0,h-vn1": input of PMIx_generate_regex */
char *layout_ppn(const layout_t *l);             /* "0,1;2,3": input of PMIx_generate_ppn */

#endif
