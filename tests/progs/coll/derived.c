/* derived.c — coll on a derived datatype (a vector with gaps): bcast, gather and the other
 * collectives leave the gaps untouched. */
#include "coll.h"

/* ---- derived datatypes: vector(3 blocks of 2 int32, stride 3) = 6 ints over 8 ---------- */
#define V_SIZE 6
#define V_EXT  8
/* Position (in ints) of the k-th packed int of consecutive vector elements. */
static size_t vpos(size_t k)
{
    size_t j = k % V_SIZE;
    return k / V_SIZE * V_EXT + j / 2 * 3 + j % 2;
}

static int32_t *ints(size_t n, int who) /* gen(who) values; who < 0: all -1 (gaps marker) */
{
    int32_t *b = xmalloc(n * 4);
    for (size_t i = 0; i < n; i++)
        b[i] = who < 0 ? -1 : (int32_t)gen(who, i, 0);
    return b;
}

static void derived_bcast_gather(const tcomm_t *c, rmp_datatype_t v)
{
    int me = c->rank, p = c->size, root = p - 1;
    what_t w = {"bcast-vector", &t_int32, 0, 5, root, me, 0};
    g.salt++;
    int32_t *buf = ints(5 * V_EXT, me == root ? root : -1), *want = ints(5 * V_EXT, -1);
    for (size_t k = 0; k < 5 * V_SIZE; k++)
        want[vpos(k)] = (int32_t)gen(root, vpos(k), 0);
    if (me == root)
        memcpy(want, buf, 5 * V_EXT * 4);
    expect_rc(&w, rmp_bcast(buf, 5, v, root, c->comm));
    expect(&w, buf, 0, want, 5 * V_EXT);
    free(buf);
    free(want);

    /* vector -> contiguous, contiguous -> vector (same type signature: 12 ints), and the
     * latter in place at the root (its slot keeps its own data, gaps included) */
    for (int mode = 0; mode < 3; mode++) {
        static const char *names[] = {"gather-vector-to-int", "gather-int-to-vector",
                                      "gather-int-to-vector"};
        bool inpl = mode == 2 && me == 0;
        what_t wg = {names[mode], &t_int32, 0, 2, 0, me, inpl};
        size_t slot = mode ? 2 * V_EXT : 2 * V_SIZE;
        g.salt++;
        int32_t *s = ints(2 * V_EXT, me), *r = ints((size_t)p * slot, -1);
        int32_t *wt = ints((size_t)p * slot, -1);
        for (int q = 0; q < p; q++)
            for (size_t k = 0; k < 2 * V_SIZE; k++) {
                if (mode == 0)
                    wt[(size_t)q * slot + k] = (int32_t)gen(q, vpos(k), 0);
                else
                    wt[(size_t)q * slot + vpos(k)] = (int32_t)gen(q, k, 0);
            }
        if (inpl)
            for (size_t i = 0; i < slot; i++) /* own slot in place: footprint and gaps */
                r[i] = wt[i] = wt[i] == -1 ? 77 : wt[i];
        int rc = mode == 0 ? rmp_gather(s, 2, v, r, 2 * V_SIZE, RMP_INT32, 0, c->comm)
                           : rmp_gather(inpl ? RMP_IN_PLACE : s, 2 * V_SIZE, RMP_INT32, r, 2, v, 0,
                                        c->comm);
        expect_rc(&wg, rc);
        if (me == 0)
            expect(&wg, r, 0, wt, (size_t)p * slot);
        free(s);
        free(r);
        free(wt);
    }
}

static void derived_others(const tcomm_t *c, rmp_datatype_t v)
{
    int me = c->rank, p = c->size;
    size_t span = (size_t)p * V_EXT;
    for (int inpl = 0; inpl < 2; inpl++) { /* allreduce sum over 4 vector elements */
        what_t w = {"allreduce-vector", &t_int32, RMP_SUM, 4, -1, me, inpl};
        g.salt++;
        int32_t *s = ints(4 * V_EXT, me), *r = inpl ? ints(4 * V_EXT, me) : ints(4 * V_EXT, -1);
        int32_t *want = inpl ? ints(4 * V_EXT, me) : ints(4 * V_EXT, -1);
        for (size_t k = 0; k < 4 * V_SIZE; k++) {
            int64_t sum = 0;
            for (int q = 0; q < p; q++)
                sum += gen(q, vpos(k), 0);
            want[vpos(k)] = (int32_t)sum;
        }
        expect_rc(&w, rmp_allreduce(inpl ? RMP_IN_PLACE : s, r, 4, v, RMP_SUM, c->comm));
        expect(&w, r, 0, want, 4 * V_EXT);
        free(s);
        free(r);
        free(want);
    }
    { /* scatter 12 ints per rank into 2 vectors; allgather and alltoall of vectors */
        what_t w = {"scatter-int-to-vector", &t_int32, 0, 2, 0, me, 0};
        g.salt++;
        int32_t *s = xmalloc((size_t)p * 2 * V_SIZE * 4), *r = ints(2 * V_EXT, -1);
        int32_t *want = ints(2 * V_EXT, -1);
        for (int q = 0; q < p; q++)
            for (size_t k = 0; k < 2 * V_SIZE; k++)
                s[(size_t)q * 2 * V_SIZE + k] = (int32_t)gen(q, k, 0);
        for (size_t k = 0; k < 2 * V_SIZE; k++)
            want[vpos(k)] = (int32_t)gen(me, k, 0);
        expect_rc(&w, rmp_scatter(s, 2 * V_SIZE, RMP_INT32, r, 2, v, 0, c->comm));
        expect(&w, r, 0, want, 2 * V_EXT);
        free(s);
        free(r);
        free(want);
    }
    for (int mode = 0; mode < 4; mode++) { /* allgather, alltoall; each also in place */
        int a2a = mode & 1, inpl = mode >> 1;
        what_t w = {a2a ? "alltoall-vector" : "allgather-vector", &t_int32, 0, 1, -1, me, inpl};
        g.salt++;
        int32_t *s = xmalloc(span * 4), *r = ints(span, -1), *want;
        for (int q = 0; q < p; q++) /* block q: sent to q (alltoall) */
            for (size_t i = 0; i < V_EXT; i++)
                s[(size_t)q * V_EXT + i] = (int32_t)gen(a2a ? me * 4096 + q : me, i, 0);
        if (inpl && a2a)
            memcpy(r, s, span * 4);
        else if (inpl)
            memcpy(r + (size_t)me * V_EXT, s, V_EXT * 4);
        want = xmalloc(span * 4); /* gaps keep what was there */
        memcpy(want, r, span * 4);
        for (int q = 0; q < p; q++) /* block q: received from q */
            for (size_t k = 0; k < V_SIZE; k++)
                want[(size_t)q * V_EXT + vpos(k)] =
                    (int32_t)gen(a2a ? q * 4096 + me : q, vpos(k), 0);
        const void *sb = inpl ? RMP_IN_PLACE : s;
        int rc = a2a ? rmp_alltoall(sb, 1, v, r, 1, v, c->comm)
                     : rmp_allgather(sb, 1, v, r, 1, v, c->comm);
        expect_rc(&w, rc);
        expect(&w, r, 0, want, span);
        free(s);
        free(r);
        free(want);
    }
}

void run_derived(const tcomm_t *c)
{
    rmp_datatype_t v;
    what_t w = {"type_vector", &t_int32, 0, 3, -1, c->rank, 0};
    expect_rc(&w, rmp_type_vector(3, 2, 3, RMP_INT32, &v));
    expect_rc(&w, rmp_type_commit(&v));
    derived_bcast_gather(c, v);
    derived_others(c, v);
    expect_rc(&w, rmp_type_free(&v));
}
