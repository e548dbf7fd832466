/* dynname.c — rmp_publish_name, rmp_lookup_name, rmp_unpublish_name: a name service that needs
 * no server, so that it works the same under mrun, separate mruns, srun, mpirun or none: one
 * file per service, holding the port name, in names/ under the user's private directory of
 * ports (mode 0700: only this user publishes or reads). A file is written under another name
 * and renamed, so a lookup never reads half a name. What a process published and did not
 * unpublish goes at its teardown. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"

typedef struct dyn_name {
    struct dyn_name *next;
    char path[RMP_DYN_ADDR_MAX + RMP_MAX_INFO_VAL + 16];
    char port[RMP_MAX_PORT_NAME]; /* what I published there (another may have replaced it) */
} dyn_name_t;

/* The file of service (the directory made when mk): RMP_SUCCESS, RMP_ERR_ARG (a bad service
 * name), RMP_ERR_PORT (the private directory is not usable: said). */
static int name_path(const char *service, char *path, size_t len, bool mk)
{
    char dir[RMP_DYN_ADDR_MAX], why[256];
    if (!service || !*service || strchr(service, '/') || strlen(service) > RMP_MAX_INFO_VAL ||
        !strcmp(service, ".") || !strcmp(service, ".."))
        return RMP_ERR_ARG;
    int rc = tp_sock_dir(dir, sizeof dir, why, sizeof why);
    if (rc != RMP_SUCCESS) {
        core_error(&rmp_ctx, "name service: %s", why);
        return rc;
    }
    snprintf(path, len, "%s/names", dir);
    if (mk && mkdir(path, 0700) != 0 && errno != EEXIST) {
        core_error(&rmp_ctx, "name service: cannot create %s: %s", path, strerror(errno));
        return RMP_ERR_PORT;
    }
    snprintf(path + strlen(path), len - strlen(path), "/%s", service);
    return RMP_SUCCESS;
}

/* The names directory and the private one go with their last entry. */
static void name_tidy(const char *path)
{
    char names[sizeof(((dyn_name_t *)0)->path)];
    snprintf(names, sizeof names, "%s", path);
    char *slash = strrchr(names, '/');
    if (!slash)
        return;
    *slash = '\0';
    if (rmdir(names) == 0 && (slash = strrchr(names, '/'))) {
        *slash = '\0';
        (void)rmdir(names);
    }
}

int rmp_publish_name(const char *service, rmp_info_t info, const char *port_name)
{
    int rc = ctx_check();
    if (rc != RMP_SUCCESS)
        return rc;
    dyn_name_t *n = calloc(1, sizeof(*n));
    char tmp[sizeof n->path + 32];
    rc = !n ? RMP_ERR_NO_MEM : !port_name ? RMP_ERR_ARG
                                          : name_path(service, n->path, sizeof n->path, true);
    if (n)
        snprintf(n->port, sizeof n->port, "%s", port_name ? port_name : "");
    if (rc == RMP_SUCCESS) {
        snprintf(tmp, sizeof tmp, "%s.%d.tmp", n->path, (int)getpid());
        FILE *f = fopen(tmp, "w");
        /* another process's name_tidy removed names/ while it was empty: make it again (once
         * our file is in it, it stays) */
        for (int t = 0; !f && errno == ENOENT && t < TP_SOCK_DIR_TRIES &&
                        name_path(service, n->path, sizeof n->path, true) == RMP_SUCCESS; t++)
            f = fopen(tmp, "w");
        if (!f || fprintf(f, "%s", port_name) < 0 || fclose(f) != 0 || rename(tmp, n->path)) {
            core_error(&rmp_ctx, "rmp_publish_name %s: %s", service, strerror(errno));
            unlink(tmp);
            rc = RMP_ERR_PORT;
        }
    }
    if (rc != RMP_SUCCESS) {
        free(n);
        return rc;
    }
    ctx_lock(&rmp_ctx);
    n->next = rmp_ctx.names;
    rmp_ctx.names = n;
    ctx_unlock(&rmp_ctx);
    return RMP_SUCCESS;
}

int rmp_lookup_name(const char *service, rmp_info_t info, char *port_name)
{
    char path[sizeof(((dyn_name_t *)0)->path)];
    int rc = ctx_check();
    if (rc == RMP_SUCCESS)
        rc = port_name ? name_path(service, path, sizeof path, false) : RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rc;
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(port_name, 1, RMP_MAX_PORT_NAME - 1, f) : 0;
    if (f)
        fclose(f);
    port_name[n] = '\0';
    return n ? RMP_SUCCESS : RMP_ERR_NAME;
}

int rmp_unpublish_name(const char *service, rmp_info_t info, const char *port_name)
{
    char path[sizeof(((dyn_name_t *)0)->path)];
    int rc = ctx_check();
    if (rc == RMP_SUCCESS)
        rc = name_path(service, path, sizeof path, false);
    if (rc != RMP_SUCCESS)
        return rc;
    ctx_lock(&rmp_ctx);
    for (dyn_name_t **pp = &rmp_ctx.names; *pp; pp = &(*pp)->next)
        if (!strcmp((*pp)->path, path)) {
            dyn_name_t *n = *pp;
            *pp = n->next;
            free(n);
            break;
        }
    ctx_unlock(&rmp_ctx);
    if (unlink(path) != 0)
        return RMP_ERR_SERVICE;
    name_tidy(path);
    return RMP_SUCCESS;
}

void dyn_name_fini(rmp_ctx_t *c)
{
    while (c->names) {
        dyn_name_t *n = c->names;
        c->names = n->next;
        char now[RMP_MAX_PORT_NAME] = {0};
        FILE *f = fopen(n->path, "r");
        if (f) {
            size_t k = fread(now, 1, sizeof now - 1, f);
            now[k] = '\0';
            fclose(f);
        }
        if (f && !strcmp(now, n->port) && unlink(n->path) == 0) /* still mine */
            name_tidy(n->path);
        free(n);
    }
}
