/* dynport.c — the ports this process opened (rmp_open_port): each a listening socket in the
 * user's private directory (transport/sock), named by "rmp-port:unix:<its path>", so that a
 * port name says how to reach it and only this user's processes can. Closed by
 * rmp_close_port, and all at teardown (their sockets' names go with them). */
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

typedef struct dyn_port {
    struct dyn_port *next;
    int fd;
    char name[RMP_MAX_PORT_NAME];
} dyn_port_t;

const char *dyn_port_path(const char *name)
{
    size_t n = strlen(DYN_PORT_PREFIX);
    if (!name || strncmp(name, DYN_PORT_PREFIX, n) || name[n] != '/')
        return NULL;
    return name + n;
}

int dyn_port_open(rmp_ctx_t *c, char *name)
{
    dyn_port_t *p = calloc(1, sizeof(*p));
    if (!p)
        return RMP_ERR_NO_MEM;
    size_t pre = strlen(DYN_PORT_PREFIX);
    char why[256];
    memcpy(p->name, DYN_PORT_PREFIX, pre);
    int rc = tp_sock_listen("port", p->name + pre, sizeof p->name - pre, &p->fd, why,
                            sizeof why);
    if (rc != RMP_SUCCESS) {
        core_error(c, "rmp_open_port: %s", why);
        free(p);
        return rc;
    }
    strcpy(name, p->name);
    ctx_lock(c);
    p->next = c->ports;
    c->ports = p;
    ctx_unlock(c);
    return RMP_SUCCESS;
}

static void port_free(dyn_port_t *p)
{
    close(p->fd);
    tp_sock_tidy(dyn_port_path(p->name));
    free(p);
}

int dyn_port_close(rmp_ctx_t *c, const char *name)
{
    dyn_port_t *found = NULL;
    ctx_lock(c);
    for (dyn_port_t **pp = &c->ports; *pp; pp = &(*pp)->next)
        if (!strcmp((*pp)->name, name)) {
            found = *pp;
            *pp = found->next;
            break;
        }
    ctx_unlock(c);
    if (!found)
        return RMP_ERR_PORT;
    port_free(found);
    return RMP_SUCCESS;
}

int dyn_port_fd(rmp_ctx_t *c, const char *name)
{
    int fd = -1;
    ctx_lock(c);
    for (dyn_port_t *p = c->ports; p && fd < 0; p = p->next)
        if (!strcmp(p->name, name))
            fd = p->fd;
    ctx_unlock(c);
    return fd;
}

typedef struct dyn_child {
    struct dyn_child *next;
    pid_t pid;
} dyn_child_t;

void dyn_child_add(rmp_ctx_t *c, pid_t pid)
{
    dyn_child_t *k = malloc(sizeof(*k));
    if (!k)
        return; /* (not reaped: a zombie until this process ends) */
    ctx_lock(c);
    *k = (dyn_child_t){.next = c->children, .pid = pid};
    c->children = k;
    ctx_unlock(c);
}

/* Spawned jobs' launchers end when their children do, which may be later than this process
 * (disconnected children are on their own): each gets a bounded wait, then is left to end
 * by itself (reparented; still in this process's group, which a launcher ending the job
 * kills). */
#define DYN_REAP_MS 5000
static void reap_children(rmp_ctx_t *c)
{
    struct timespec nap = {0, 10 * 1000000};
    for (int waited = 0; c->children; waited += 10) {
        dyn_child_t *k = c->children;
        pid_t r = waitpid(k->pid, NULL, WNOHANG);
        if (r == 0 && waited < DYN_REAP_MS) {
            nanosleep(&nap, NULL);
            continue;
        }
        c->children = k->next;
        free(k);
    }
}

void dyn_port_fini(rmp_ctx_t *c)
{
    reap_children(c);
    while (c->ports) {
        dyn_port_t *p = c->ports;
        c->ports = p->next;
        port_free(p);
    }
}

void dyn_port_abandon(rmp_ctx_t *c)
{
    for (dyn_port_t *p = c->ports; p; p = p->next) /* (no locks, no frees: rmp_abort) */
        tp_sock_tidy(dyn_port_path(p->name));
}
