/* isendrecv.c — mpi_persist's MPI_Isendrecv(_replace), and two threads per rank, each on its
 * own communicator, with persistent collectives and isendrecv at once (MPI_THREAD_MULTIPLE). */
#include "mpi_persist.h"

void t_isendrecv(void)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int sb[CNT] = {0}, rb[CNT + 2] = {0};
    MPI_Request r;
    MPI_Status st;
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < CNT; i++)
            sb[i] = val(rank, i, k);
        for (int i = 0; i < CNT + 2; i++)
            rb[i] = -1;
        CHECK(MPI_Isendrecv(sb, CNT, MPI_INT, right, 3 + k, rb, CNT + 2, MPI_INT, left, 3 + k,
                            MPI_COMM_WORLD, &r));
        CHECK(MPI_Wait(&r, &st));
        if (r != MPI_REQUEST_NULL)
            FAIL("MPI_Wait left an isendrecv request");
        EXPECT_INT(st.MPI_SOURCE, left);
        EXPECT_INT(st.MPI_TAG, 3 + k);
        int c = -1;
        CHECK(MPI_Get_count(&st, MPI_INT, &c));
        EXPECT_INT(c, CNT);
        for (int i = 0; i < CNT + 2; i++)
            EXPECT_INT(rb[i], i < CNT ? val(left, i, k) : -1);
    }
    /* replace, with a message over the eager limit (rendezvous): the buffer receives while
     * the outgoing copy is still being read */
    size_t big = 1 << 18;
    int *buf = malloc(sizeof(int) * big);
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < big; i++)
            buf[i] = val(rank, (int)(i % 1000), k) + (int)(i / 1000);
        CHECK(MPI_Isendrecv_replace(buf, (int)big, MPI_INT, right, 7, left, 7, MPI_COMM_WORLD, &r));
        CHECK(MPI_Wait(&r, &st));
        EXPECT_INT(st.MPI_SOURCE, left);
        size_t bad = 0;
        for (size_t i = 0; i < big; i++)
            bad += buf[i] != val(left, (int)(i % 1000), k) + (int)(i / 1000);
        EXPECT_INT(bad, 0);
    }
    free(buf);
    /* a derived type, replace: only the vector's elements move */
    MPI_Datatype vec;
    CHECK(MPI_Type_vector(CNT, 1, 2, MPI_INT, &vec));
    CHECK(MPI_Type_commit(&vec));
    int vb[2 * CNT];
    for (int i = 0; i < 2 * CNT; i++)
        vb[i] = val(rank, i, 0);
    CHECK(MPI_Isendrecv_replace(vb, 1, vec, right, 1, left, 1, MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 2 * CNT; i++)
        EXPECT_INT(vb[i], i % 2 ? val(rank, i, 0) : val(left, i, 0));
    CHECK(MPI_Type_free(&vec));
    /* MPI_PROC_NULL on both sides: completes, empty status, buffer untouched */
    int one = 5;
    CHECK(MPI_Isendrecv_replace(&one, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0,
                                MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, &st));
    EXPECT_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    EXPECT_INT(one, 5);
    /* several in flight, completed by Waitall, wildcards */
    MPI_Request many[2];
    int o1 = rank, o2 = -rank, i1 = -1, i2 = -1;
    CHECK(MPI_Isendrecv(&o1, 1, MPI_INT, right, 20, &i1, 1, MPI_INT, MPI_ANY_SOURCE, 20,
                        MPI_COMM_WORLD, &many[0]));
    CHECK(MPI_Isendrecv(&o2, 1, MPI_INT, left, 21, &i2, 1, MPI_INT, right, MPI_ANY_TAG,
                        MPI_COMM_WORLD, &many[1]));
    MPI_Status sts[2];
    CHECK(MPI_Waitall(2, many, sts));
    EXPECT_INT(i1, left);
    EXPECT_INT(i2, -right);
    EXPECT_INT(sts[1].MPI_TAG, 21);
    /* MPI_Request_free of a running isendrecv: it completes in the background; a second one
     * on the same tag matches after it (messages do not overtake), so once that is done the
     * first (small, eager) one has landed */
    int f1 = rank + 100, g1 = -1, f2 = rank + 200, g2 = -1;
    CHECK(MPI_Isendrecv(&f1, 1, MPI_INT, right, 40, &g1, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &r));
    CHECK(MPI_Request_free(&r));
    if (r != MPI_REQUEST_NULL)
        FAIL("MPI_Request_free left an isendrecv request");
    CHECK(MPI_Isendrecv(&f2, 1, MPI_INT, right, 40, &g2, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT_INT(g2, left + 200);
    EXPECT_INT(g1, left + 100);
    /* truncation: the receive's error */
    int big2[4] = {1, 2, 3, 4}, small2[2];
    CHECK(MPI_Isendrecv(big2, 4, MPI_INT, right, 30, small2, 2, MPI_INT, left, 30, MPI_COMM_WORLD,
                        &r));
    expect_class("isendrecv truncated", MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    /* errors */
    r = MPI_REQUEST_NULL;
    expect_class(
        "isendrecv bad dest",
        MPI_Isendrecv(sb, 1, MPI_INT, size, 0, rb, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
        MPI_ERR_RANK);
    expect_class(
        "isendrecv bad tag",
        MPI_Isendrecv(sb, 1, MPI_INT, right, -5, rb, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
        MPI_ERR_TAG);
    expect_class("isendrecv_replace bad count",
                 MPI_Isendrecv_replace(sb, -1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &r),
                 MPI_ERR_COUNT);
    expect_class(
        "isendrecv NULL request",
        MPI_Isendrecv(sb, 1, MPI_INT, right, 0, rb, 1, MPI_INT, left, 0, MPI_COMM_WORLD, NULL),
        MPI_ERR_ARG);
    expect_class("isendrecv bad comm",
                 MPI_Isendrecv(sb, 1, MPI_INT, 0, 0, rb, 1, MPI_INT, 0, 0, 99, &r), MPI_ERR_COMM);
    if (r != MPI_REQUEST_NULL)
        FAIL("a refused isendrecv set the request");
    CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* nothing of the refused calls was posted */
}

/* MPI_THREAD_MULTIPLE: two threads, each on its own duplicate of MPI_COMM_WORLD, make, start
 * and free persistent collectives and isendrecv at the same time (the init's dry run and the
 * start's mode are per thread). */
typedef struct thr_arg {
    MPI_Comm comm;
    int id;
} thr_arg_t;

static void *thr_main(void *p)
{
    thr_arg_t *a = p;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int it = 0; it < 3; it++) {
        int sb[CNT] = {0}, rb[CNT] = {0}, b[CNT] = {0};
        MPI_Request q[2];
        CHECK(MPI_Allreduce_init(sb, rb, CNT, MPI_INT, MPI_SUM, a->comm, MPI_INFO_NULL, &q[0]));
        CHECK(MPI_Bcast_init(b, CNT, MPI_INT, 0, a->comm, MPI_INFO_NULL, &q[1]));
        for (int k = 0; k < ROUNDS; k++) {
            for (int i = 0; i < CNT; i++) {
                sb[i] = val(rank, i, k) + a->id;
                b[i] = rank == 0 ? val(0, i, k) * 2 + a->id : -1;
            }
            CHECK(MPI_Startall(2, q));
            CHECK(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
            for (int i = 0; i < CNT; i++) {
                int sum = 0;
                for (int r = 0; r < size; r++)
                    sum += val(r, i, k) + a->id;
                EXPECT_INT(rb[i], sum);
                EXPECT_INT(b[i], val(0, i, k) * 2 + a->id);
            }
            int x = val(rank, a->id, k), y = -1;
            MPI_Request r;
            CHECK(MPI_Isendrecv(&x, 1, MPI_INT, right, a->id, &y, 1, MPI_INT, left, a->id, a->comm,
                                &r));
            CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            EXPECT_INT(y, val(left, a->id, k));
        }
        CHECK(MPI_Request_free(&q[0]));
        CHECK(MPI_Request_free(&q[1]));
    }
    return NULL;
}

void t_threads(void)
{
    thr_arg_t a[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        a[i].id = i;
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &a[i].comm));
        CHECK(MPI_Comm_set_errhandler(a[i].comm, MPI_ERRORS_RETURN));
    }
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, thr_main, &a[i]))
            FAIL("pthread_create");
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        CHECK(MPI_Comm_free(&a[i].comm));
}
