/* pmix_info.c: the job's namespace as PMIx info for mrun's server (pmix_srv.c): job sizes,
 * the node and locality maps, one entry per virtual node and one per rank. */
#include "pmix_info.h"

#include <pmix.h>
#include <pmix_server.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Collects info entries, remembering the first failure so callers check once. */
typedef struct ilist {
    void *list;
    pmix_status_t rc;
} ilist_t;

static void il_add(ilist_t *l, const char *key, const void *val, pmix_data_type_t type)
{
    if (l->rc == PMIX_SUCCESS)
        l->rc = PMIx_Info_list_add(l->list, key, val, type);
}

static void il_u32(ilist_t *l, const char *key, uint32_t v) { il_add(l, key, &v, PMIX_UINT32); }
static void il_u16(ilist_t *l, const char *key, uint16_t v) { il_add(l, key, &v, PMIX_UINT16); }
static void il_rank(ilist_t *l, const char *key, pmix_rank_t v) { il_add(l, key, &v, PMIX_PROC_RANK); }
static void il_str(ilist_t *l, const char *key, const char *v) { il_add(l, key, v, PMIX_STRING); }

/* Adds key = the array of the entries collected in sub, and releases sub. */
static void il_nest(ilist_t *l, const char *key, ilist_t *sub)
{
    pmix_data_array_t arr = {0};
    if (sub->rc == PMIX_SUCCESS)
        sub->rc = PMIx_Info_list_convert(sub->list, &arr);
    if (l->rc == PMIX_SUCCESS)
        l->rc = sub->rc;
    il_add(l, key, &arr, PMIX_DATA_ARRAY);
    PMIx_Info_list_release(sub->list);
    if (arr.array)
        PMIx_Data_array_destruct(&arr);
}

/* The node-level keys of one (virtual) node. */
static void add_node_keys(ilist_t *l, const layout_t *lay, int node)
{
    char *peers = layout_peers(lay, node);
    if (!peers && l->rc == PMIX_SUCCESS)
        l->rc = PMIX_ERR_NOMEM;
    il_u32(l, PMIX_NODEID, (uint32_t)node);
    il_str(l, PMIX_HOSTNAME, lay->hosts[node]);
    il_u32(l, PMIX_LOCAL_SIZE, (uint32_t)layout_node_size(lay, node));
    il_u32(l, PMIX_NODE_SIZE, (uint32_t)layout_node_size(lay, node));
    il_str(l, PMIX_LOCAL_PEERS, peers ? peers : "");
    il_rank(l, PMIX_LOCALLDR, (pmix_rank_t)layout_node_first(lay, node));
    free(peers);
}

static void add_maps(ilist_t *l, const layout_t *lay)
{
    char *hosts = layout_hosts(lay), *ppn_in = layout_ppn(lay), *regex = NULL, *ppn = NULL;
    if ((!hosts || !ppn_in) && l->rc == PMIX_SUCCESS)
        l->rc = PMIX_ERR_NOMEM;
    if (l->rc == PMIX_SUCCESS)
        l->rc = PMIx_generate_regex(hosts, &regex);
    if (l->rc == PMIX_SUCCESS)
        l->rc = PMIx_generate_ppn(ppn_in, &ppn);
    /* PMIX_REGEX, not a string: the generated form may be a binary blob */
    il_add(l, PMIX_NODE_MAP, regex, PMIX_REGEX);
    il_add(l, PMIX_PROC_MAP, ppn, PMIX_REGEX);
    free(hosts), free(ppn_in), free(regex), free(ppn);
}

static void add_job_info(ilist_t *l, const char *nspace, const layout_t *lay)
{
    uint32_t n = (uint32_t)lay->nprocs;
    il_u32(l, PMIX_UNIV_SIZE, n);
    il_u32(l, PMIX_JOB_SIZE, n);
    il_u32(l, PMIX_MAX_PROCS, n);
    il_u32(l, PMIX_APP_SIZE, n);
    il_u32(l, PMIX_JOB_NUM_APPS, 1);
    il_u32(l, PMIX_NUM_NODES, (uint32_t)lay->nnodes);
    il_str(l, PMIX_JOBID, nspace);
    add_maps(l, lay);
    if (lay->nnodes == 1) {
        add_node_keys(l, lay, 0);
    } else {
        /* A client picks its node's entry by the PMIX_HOSTNAME we put in its environment. */
        for (int node = 0; node < lay->nnodes; node++) {
            ilist_t sub = {PMIx_Info_list_start(), PMIX_SUCCESS};
            add_node_keys(&sub, lay, node);
            il_nest(l, PMIX_NODE_INFO_ARRAY, &sub);
        }
    }
    for (int r = 0; r < lay->nprocs; r++) {
        int node = layout_node_of(lay, r);
        uint16_t local = (uint16_t)(r - layout_node_first(lay, node));
        ilist_t sub = {PMIx_Info_list_start(), PMIX_SUCCESS};
        il_rank(&sub, PMIX_RANK, (pmix_rank_t)r); /* must come first */
        il_rank(&sub, PMIX_GLOBAL_RANK, (pmix_rank_t)r);
        il_u16(&sub, PMIX_LOCAL_RANK, local);
        il_u16(&sub, PMIX_NODE_RANK, local);
        il_u32(&sub, PMIX_NODEID, (uint32_t)node);
        il_u32(&sub, PMIX_APPNUM, 0);
        il_str(&sub, PMIX_HOSTNAME, lay->hosts[node]);
        il_nest(l, PMIX_PROC_DATA, &sub);
    }
}

pmix_status_t pmix_job_info(const char *nspace, const layout_t *lay, pmix_data_array_t *arr)
{
    ilist_t l = {PMIx_Info_list_start(), PMIX_SUCCESS};
    if (!l.list)
        return PMIX_ERR_NOMEM;
    add_job_info(&l, nspace, lay);
    pmix_status_t rc = l.rc;
    if (rc == PMIX_SUCCESS)
        rc = PMIx_Info_list_convert(l.list, arr);
    PMIx_Info_list_release(l.list);
    return rc;
}
