/* spawn_pmix.c — starting a spawn's children through the launcher's PMIx server (PMIx_Spawn):
 * mrun's starts them as a job of its own; Slurm's and Open MPI's do what they offer, and a
 * refusal is RMP_ERR_SPAWN with one line naming the server and PMIx's status, never a wait. */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Who serves this process's PMIx, as its environment tells. */
static const char *server_name(void)
{
    if (getenv("RMP_MRUN_FD"))
        return "mrun's PMIx server";
    if (getenv("SLURM_JOB_ID") || getenv("SLURM_STEP_ID"))
        return "Slurm's PMIx server (srun --mpi=pmix)";
    if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("OMPI_MCA_orte_hnp_uri") ||
        getenv("PRTE_LAUNCHED"))
        return "Open MPI's PMIx server (mpirun)";
    return "the launcher's PMIx server";
}

int boot_spawn(rmp_ctx_t *c, const boot_app_t *a, char *nspace, size_t len)
{
    if (c->singleton) {
        core_error(c, "rmp_comm_spawn %s: no PMIx server (a singleton)", a->cmd);
        return RMP_ERR_SPAWN;
    }
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    /* the PMIx structure's strings are not const; PMIx only reads them here, and the app is
     * not destructed (it owns nothing) */
    app.cmd = (char *)a->cmd;
    app.argv = (char **)a->argv;
    app.env = (char **)a->env;
    app.cwd = (char *)a->cwd;
    app.maxprocs = a->maxprocs;
    pmix_nspace_t ns = {0};
    pmix_status_t st = PMIx_Spawn(NULL, 0, &app, 1, ns);
    if (st != PMIX_SUCCESS) {
        core_error(c, "rmp_comm_spawn %s: %s refused PMIx_Spawn: %s (%d)", a->cmd,
                   server_name(), PMIx_Error_string(st), (int)st);
        return RMP_ERR_SPAWN;
    }
    snprintf(nspace, len, "%s", ns);
    return RMP_SUCCESS;
}
