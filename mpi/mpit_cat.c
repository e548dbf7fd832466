/* mpit_cat.c — categories (MPI-4.0 15.3.9): "rmp" holds one category per concern, and every
 * cvar and pvar is in exactly one of those, chosen by its name: the shared-memory transport's,
 * the verbs transport's (and the counters only RDMA has), the collectives' and one-sided
 * communication's knobs, and the rest (protocols, queues, waiting). The set never changes
 * while the process runs: MPI_T_category_changed always gives 0. No category has events. */
#include <string.h>

#include "mpit.h"

enum { CAT_RMP, CAT_GENERAL, CAT_SHM, CAT_VERBS, CAT_COLL, CAT_RMA, NCAT };

static const struct {
    const char *name, *desc;
} cats[NCAT] = {
    [CAT_RMP] = {"rmp", "every variable of rmp, by concern"},
    [CAT_GENERAL] = {"rmp_general", "transport choice, eager and rendezvous protocols, the "
                                    "matching queues, waiting, start-up and finalize"},
    [CAT_SHM] = {"rmp_shm", "the shared-memory transport (ranks on one node)"},
    [CAT_VERBS] = {"rmp_verbs", "the verbs transport (InfiniBand, RoCE): connections, "
                                "registration, RDMA READ, multicast"},
    [CAT_COLL] = {"rmp_collectives", "collective algorithms and their size thresholds"},
    [CAT_RMA] = {"rmp_rma", "one-sided communication"},
};

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

int rmpi_t_cvar_cat(int i)
{
    rmp_cvar_info_t info;
    if (rmp_cvar_info(i, &info) != RMP_SUCCESS)
        return -1;
    const char *n = info.name + 4; /* after "RMP_" */
    static const char *const verbs[] = {"DEVICE", "GID_", "CM", "CONNECT", "VERBS_", "REG_",
                                        "MCAST", NULL};
    if (starts(n, "SHM_") || !strcmp(n, "CMA"))
        return CAT_SHM;
    for (int k = 0; verbs[k]; k++)
        if (starts(n, verbs[k]))
            return CAT_VERBS;
    if (starts(n, "COLL_"))
        return CAT_COLL;
    if (starts(n, "RMA_"))
        return CAT_RMA;
    return CAT_GENERAL;
}

int rmpi_t_pvar_cat(int i)
{
    rmp_stat_info_t info;
    int bind;
    if (rmpi_t_pvar_info(i, &info, &bind) != MPI_SUCCESS)
        return -1;
    static const char *const verbs[] = {"verbs_", "rdma_", "mcast_", "reg_", NULL};
    if (starts(info.name, "shm_"))
        return CAT_SHM;
    for (int k = 0; verbs[k]; k++)
        if (starts(info.name, verbs[k]))
            return CAT_VERBS;
    return CAT_GENERAL;
}

/* How many of n members (cvars, pvars, subcategories) category c has; with indices, the
 * first len of them. */
static int cat_members(int c, int n, int (*cat_of)(int), int len, int *indices)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (cat_of(i) == c) {
            if (indices && k < len)
                indices[k] = i;
            k++;
        }
    return k;
}

/* The parent of category i: "rmp" for the others, none (-1) for "rmp". */
static int cat_parent(int i)
{
    return i == CAT_RMP ? -1 : CAT_RMP;
}

static const char *cat_name(int i)
{
    return cats[i].name;
}

/* MPI_SUCCESS, or why cat_index cannot be used. */
static int cat_check(int cat_index)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    return cat_index >= 0 && cat_index < NCAT ? MPI_SUCCESS : MPI_T_ERR_INVALID_INDEX;
}

int MPI_T_category_get_num(int *num_cat)
{
    return rmpi_t_count(num_cat, NCAT);
}

int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                            int *desc_len, int *num_cvars, int *num_pvars, int *num_categories)
{
    int rc = cat_check(cat_index);
    if (rc)
        return rc;
    rmpi_t_str(cats[cat_index].name, name, name_len);
    rmpi_t_str(cats[cat_index].desc, desc, desc_len);
    rmpi_t_put(num_cvars, cat_members(cat_index, rmp_cvar_count(), rmpi_t_cvar_cat, 0, NULL));
    rmpi_t_put(num_pvars, cat_members(cat_index, rmpi_t_pvar_count(), rmpi_t_pvar_cat, 0, NULL));
    rmpi_t_put(num_categories, cat_members(cat_index, NCAT, cat_parent, 0, NULL));
    return MPI_SUCCESS;
}

int MPI_T_category_get_num_events(int cat_index, int *num_events)
{
    int rc = cat_check(cat_index);
    if (rc)
        return rc;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = 0;
    return MPI_SUCCESS;
}

int MPI_T_category_get_index(const char *name, int *cat_index)
{
    int rc = rmpi_t_ready();
    if (rc)
        return rc;
    if (!name || !cat_index)
        return MPI_T_ERR_INVALID;
    int i = rmpi_t_find(name, NCAT, cat_name);
    if (i < 0)
        return MPI_T_ERR_INVALID_NAME;
    *cat_index = i;
    return MPI_SUCCESS;
}

/* The get_cvars/pvars/categories calls: the first len members' indices. */
static int cat_list(int cat_index, int len, int indices[], int n, int (*cat_of)(int))
{
    int rc = cat_check(cat_index);
    if (rc)
        return rc;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    cat_members(cat_index, n, cat_of, len, indices);
    return MPI_SUCCESS;
}

int MPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    return cat_list(cat_index, len, indices, rmp_cvar_count(), rmpi_t_cvar_cat);
}

int MPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return cat_list(cat_index, len, indices, rmpi_t_pvar_count(), rmpi_t_pvar_cat);
}

int MPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return cat_list(cat_index, len, indices, NCAT, cat_parent);
}

int MPI_T_category_get_events(int cat_index, int len, int indices[])
{
    return cat_list(cat_index, len, indices, 0, cat_parent); /* no events */
}

int MPI_T_category_changed(int *update_number)
{
    return rmpi_t_count(update_number, 0);
}
