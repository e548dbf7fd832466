/* verbs_fault.c — failures injected into the real driver (RMP_VERBS_FAULT, for the VM suite:
 * only a failure reaches the error paths, and no mock of verbs is wanted), and the fix each
 * completion error points the user to, appended to the line that reports it.
 *
 * RMP_VERBS_FAULT=kind[:N][@rank] (on every rank, or on `rank` only):
 *   qp-err:N         the QP to the peer of the Nth send (not to itself) goes to the error state
 *   revoke:N         the Nth rendezvous buffer handed out is deregistered and registered again:
 *                    the key the peer got is revoked before its RDMA READ
 *   cq:N             the completion queue gets N entries, not what every queue needs: overrun
 *   cm-unroutable    rdmacm resolves peers at an address of their subnet where nobody answers
 *   fp-reg:N         the Nth fast-path ring is memory the kernel cannot pin (PROT_NONE): its
 *                    registration fails in the driver (EFAULT), and that sender stays on the SRQ */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "transport/verbs/verbs.h"

static const char *const fault_names[] = {"", "qp-err", "revoke", "cq", "cm-unroutable",
                                          "fp-reg"};

void verbs_fault_open(verbs_tp_t *v)
{
    const char *s = tp_knob(&v->base, "RMP_VERBS_FAULT"); /* knobs.c checked its form */
    if (!s)
        return;
    size_t k = strcspn(s, ":@");
    for (int i = VF_QP_ERR; i <= VF_FP_REG; i++)
        if (strlen(fault_names[i]) == k && !strncmp(s, fault_names[i], k))
            v->fault = (uint8_t)i;
    const char *colon = strchr(s, ':'), *at = strchr(s, '@');
    v->fault_n = colon ? (uint32_t)strtoul(colon + 1, NULL, 10) : 1;
    if (at && atoi(at + 1) != v->base.env->rank)
        v->fault = VF_NONE;
    if (v->fault)
        tp_verbose(&v->base, "verbs: fault injection on: RMP_VERBS_FAULT=%s", s);
}

/* qp-err: after the Nth send to another rank, its QP is pushed into the error state while
 * that send may still be in flight, as a fatal adapter error would. */
void verbs_fault_after_send(verbs_tp_t *v, verbs_conn_t *c)
{
    if (v->fault != VF_QP_ERR || c->peer == v->base.env->rank || ++v->fault_count != v->fault_n)
        return;
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_ERR};
    int rc = ibv_modify_qp(c->qp, &a, IBV_QP_STATE);
    tp_error(&v->base, "verbs: RMP_VERBS_FAULT: QP 0x%x to rank %d moved to the error state "
             "after send %u: %s", c->qp->qp_num, c->peer, v->fault_n, rc ? strerror(rc) : "done");
}

/* revoke: the registration behind a rendezvous key is replaced by a new one of the same
 * memory, so the key already published is dead when the peer reads with it. */
void verbs_fault_revoke(verbs_tp_t *v, verbs_mr_t *m)
{
    if (v->fault != VF_REVOKE || ++v->fault_count != v->fault_n)
        return;
    uint32_t old = m->mr->rkey;
    struct ibv_mr *mr = ibv_reg_mr(v->pd, (void *)m->start, m->end - m->start,
                                   m->cached ? IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ
                                             : IBV_ACCESS_REMOTE_READ);
    if (!mr) {
        tp_error(&v->base, "verbs: RMP_VERBS_FAULT=revoke: ibv_reg_mr: %s", strerror(errno));
        return;
    }
    if (ibv_dereg_mr(m->mr))
        tp_error(&v->base, "verbs: RMP_VERBS_FAULT=revoke: ibv_dereg_mr: %s", strerror(errno));
    m->mr = mr;
    tp_error(&v->base, "verbs: RMP_VERBS_FAULT: rendezvous key 0x%x revoked (buffer "
             "deregistered; new key 0x%x)", old, mr->rkey);
}

int verbs_fault_cq_size(verbs_tp_t *v, int want)
{
    if (v->fault != VF_CQ)
        return want;
    tp_error(&v->base, "verbs: RMP_VERBS_FAULT: completion queue of %u entries, %d needed",
             v->fault_n, want);
    return (int)v->fault_n;
}

/* cm-unroutable: the peer's IPv4 address with its last byte changed (253, or 252 for .253):
 * same subnet, so the resolution waits for an ARP answer that never comes. */
void verbs_fault_cm_dst(verbs_tp_t *v, int peer, struct sockaddr_storage *dst)
{
    if (v->fault != VF_CM_UNROUTABLE || peer == v->base.env->rank ||
        dst->ss_family != AF_INET)
        return;
    struct sockaddr_in *in = (struct sockaddr_in *)dst;
    uint32_t a = ntohl(in->sin_addr.s_addr);
    a = (a & ~0xffu) | ((a & 0xffu) == 253 ? 252u : 253u);
    in->sin_addr.s_addr = htonl(a);
    char s[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &in->sin_addr, s, sizeof(s));
    tp_error(&v->base, "verbs: RMP_VERBS_FAULT: rank %d resolved at %s, where nobody answers",
             peer, s);
}

/* The fix for a work request that failed with s, as "; fix: ..." (or "" when none helps). */
const char *verbs_wc_fix(enum ibv_wc_status s)
{
    switch (s) {
    case IBV_WC_RETRY_EXC_ERR:
        return "; fix: the peer stopped acknowledging: its process or node died, or the link "
               "is down (`ibv_devinfo`, `ip link`); on a slow fabric raise RMP_VERBS_TIMEOUT";
    case IBV_WC_RNR_RETRY_EXC_ERR:
        return "; fix: the peer posted no receive buffer in time (it stopped polling?)";
    case IBV_WC_REM_ACCESS_ERR:
    case IBV_WC_REM_INV_REQ_ERR:
        return "; fix: the peer's memory key is no longer valid (a buffer freed or "
               "deregistered while a transfer used it); rank and peer must agree on it";
    case IBV_WC_WR_FLUSH_ERR:
        return "; fix: the QP had gone to the error state: the first error reported for this "
               "peer is the cause";
    case IBV_WC_LOC_PROT_ERR:
    case IBV_WC_LOC_ACCESS_ERR:
        return "; fix: a local buffer's registration did not cover it (an rmp bug: please "
               "report)";
    case IBV_WC_REM_OP_ERR:
    case IBV_WC_FATAL_ERR:
    case IBV_WC_LOC_QP_OP_ERR:
        return "; fix: the adapter failed the request: check `dmesg` and the port state "
               "(`ibv_devinfo`)";
    default:
        return "";
    }
}

int verbs_fault_ring_prot(verbs_tp_t *v)
{
    if (v->fault != VF_FP_REG || ++v->fault_count != v->fault_n)
        return PROT_READ | PROT_WRITE;
    tp_error(&v->base, "verbs: RMP_VERBS_FAULT: fast-path ring %u mapped without access: its "
             "registration must fail", v->fault_n);
    return PROT_NONE;
}
