/* mpi_spawn.c — MPI_Comm_spawn as MPICH's spawn tests check it: the parents spawn NC children
 * with argv and errcodes; the children see their parent (and its size), get argv, talk with
 * exact values both ways, run intercommunicator collectives, merge, and disconnect; a child
 * spawns a grandchild (nested); the error cases end on every parent rank with MPI_ERR_SPAWN:
 * a command that does not exist, info "file", a "soft" that is no list of counts or allows
 * none up to maxprocs, a host elsewhere, a child that dies
 * before it connects. "late": the children outlive their parents by a second (the launcher
 * must wait for them); "count N": N children, nothing else (bench/README's spawn times);
 * "refused": a launcher that refuses to spawn (Slurm's) gives MPI_ERR_SPAWN on every rank. */
#include <time.h>
#include <pthread.h>
#include <stdbool.h>

#include "mpicheck.h"

#define NC 2

static int child(MPI_Comm parent, int argc, char **argv)
{
    int r, n, psize;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(MPI_Comm_remote_size(parent, &psize));
    if (argc < 3 || strcmp(argv[1], "child") || strcmp(argv[2], "two words"))
        FAIL("child %d: argv not passed (argc %d)", r, argc);
    int *app = NULL, flag = 0; /* spawn_multiple: app 0 is rank 0, app 1 the others */
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &app, &flag));
    bool multi = argc > 3 && !strcmp(argv[3], "app1");
    if (!flag || !app || *app != (multi ? 1 : 0))
        FAIL("child %d: MPI_APPNUM %d, expected %d", r, app ? *app : -1, multi);
    int v = -1;
    CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 5, parent, MPI_STATUS_IGNORE));
    EXPECT_INT(v, 100 + r);
    v = 200 + r;
    CHECK(MPI_Send(&v, 1, MPI_INT, 0, 6, parent));
    int sum = 0, one = 1;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, parent));
    EXPECT_INT(sum, psize);
    MPI_Comm m;
    CHECK(MPI_Intercomm_merge(parent, 1, &m));
    int mr;
    CHECK(MPI_Comm_rank(m, &mr));
    EXPECT_INT(mr, psize + r);
    CHECK(MPI_Comm_free(&m));
    if (argc > 3 && !strcmp(argv[3], "nest") && r == 0) { /* a grandchild of my own */
        char *gargv[] = {"child", "two words", NULL};
        MPI_Comm g;
        int code = -1;
        CHECK(MPI_Comm_spawn(argv[0], gargv, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &g, &code));
        EXPECT_INT(code, MPI_SUCCESS);
        v = 100;
        CHECK(MPI_Send(&v, 1, MPI_INT, 0, 5, g));
        CHECK(MPI_Recv(&v, 1, MPI_INT, 0, 6, g, MPI_STATUS_IGNORE));
        EXPECT_INT(v, 200);
        CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, g));
        MPI_Comm gm;
        CHECK(MPI_Intercomm_merge(g, 0, &gm));
        CHECK(MPI_Comm_free(&gm));
        CHECK(MPI_Comm_disconnect(&g));
    }
    CHECK(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    if (argc > 3 && !strcmp(argv[3], "late")) /* the parents are gone by now */
        nanosleep(&(struct timespec){.tv_sec = 1}, NULL);
    if (mc_failures == 0)
        printf("child %d OK\n", r);
    return mc_failures ? 1 : 0;
}

static void expect_spawn_error(const char *cmd, MPI_Info info, const char *what)
{
    int codes[NC] = {-1, -1};
    MPI_Comm ic = MPI_COMM_NULL;
    char *args[] = {"child", "two words", NULL};
    int rc = MPI_Comm_spawn(cmd, args, NC, info, 0, MPI_COMM_WORLD, &ic, codes);
    int cls = -1, c0 = -1;
    MPI_Error_class(rc, &cls);
    MPI_Error_class(codes[0], &c0);
    if (cls != MPI_ERR_SPAWN || c0 != MPI_ERR_SPAWN || ic != MPI_COMM_NULL)
        FAIL("%s: class %d, errcodes[0] class %d, expected MPI_ERR_SPAWN", what, cls, c0);
}

/* "thread": under MPI_THREAD_MULTIPLE, a second thread passes a token around a duplicate of
 * the world while the main thread spawns. */
static MPI_Comm ring;

static void *token_ring(void *arg)
{
    int size, v = 0;
    MPI_Comm_size(ring, &size);
    for (int i = 0; i < 50; i++) {
        if (mc_rank == 0) {
            v = i;
            CHECK(MPI_Send(&v, 1, MPI_INT, 1 % size, 9, ring));
            CHECK(MPI_Recv(&v, 1, MPI_INT, size - 1, 9, ring, MPI_STATUS_IGNORE));
        } else {
            CHECK(MPI_Recv(&v, 1, MPI_INT, mc_rank - 1, 9, ring, MPI_STATUS_IGNORE));
            CHECK(MPI_Send(&v, 1, MPI_INT, (mc_rank + 1) % size, 9, ring));
        }
        EXPECT_INT(v, i);
    }
    return arg;
}

int main(int argc, char **argv)
{
    bool threaded = argc > 1 && !strcmp(argv[1], "thread");
    pthread_t th;
    if (threaded) {
        int provided = -1;
        mc_watchdog(150);
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
        EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &ring));
        pthread_create(&th, NULL, token_ring, NULL);
    } else {
        mc_init(&argc, &argv, 150);
    }
    MPI_Comm parent;
    CHECK(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL)
        return child(parent, argc, argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bool nest = argc > 1 && !strcmp(argv[1], "nest");
    bool multi = argc > 1 && !strcmp(argv[1], "multi");
    bool late = argc > 1 && !strcmp(argv[1], "late");
    bool count = argc > 2 && !strcmp(argv[1], "count");
    if (argc > 1 && !strcmp(argv[1], "refused")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        expect_spawn_error(argv[0], MPI_INFO_NULL, "a spawn the launcher refuses");
        MPI_Finalize();
        return mc_done("mpi_spawn");
    }
    char *args[] = {"child", "two words", nest ? "nest" : late ? "late" : NULL, NULL};
    int codes[16], nc = multi ? NC + 1 : count ? atoi(argv[2]) : NC;
    if (nc < 1 || nc > 16) {
        FAIL("count %d: 1 to 16 children", nc);
        nc = NC;
    }
    MPI_Comm ic;
    if (multi) { /* app 0: one child; app 1: two, with an argument more */
        char *args1[] = {"child", "two words", "app1", NULL};
        char *cmds[] = {argv[0], argv[0]}, **argvs[] = {args, args1};
        int np[] = {1, NC};
        MPI_Info infos[] = {MPI_INFO_NULL, MPI_INFO_NULL};
        CHECK(MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_WORLD, &ic,
                                      codes));
    } else {
        CHECK(MPI_Comm_spawn(argv[0], args, nc, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes));
    }
    for (int i = 0; i < nc; i++)
        EXPECT_INT(codes[i], MPI_SUCCESS);
    int rs = 0;
    CHECK(MPI_Comm_remote_size(ic, &rs));
    EXPECT_INT(rs, nc);
    if (mc_rank == 0)
        for (int i = 0; i < rs; i++) {
            int v = 100 + i;
            CHECK(MPI_Send(&v, 1, MPI_INT, i, 5, ic));
            CHECK(MPI_Recv(&v, 1, MPI_INT, i, 6, ic, MPI_STATUS_IGNORE));
            EXPECT_INT(v, 200 + i);
        }
    int sum = 0, one = 1;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ic));
    EXPECT_INT(sum, nc);
    MPI_Comm m;
    CHECK(MPI_Intercomm_merge(ic, 0, &m));
    int mr;
    CHECK(MPI_Comm_rank(m, &mr));
    EXPECT_INT(mr, mc_rank);
    CHECK(MPI_Comm_free(&m));
    CHECK(MPI_Comm_disconnect(&ic));
    if (threaded) {
        pthread_join(th, NULL);
        CHECK(MPI_Comm_free(&ring));
    }
    if (!nest && !multi && !threaded && !late && !count) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        expect_spawn_error("/no/such/program", MPI_INFO_NULL, "missing command");
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "file", "appfile");
        expect_spawn_error(argv[0], info, "reserved info key rmp cannot honour");
        MPI_Info_delete(info, "file");
        MPI_Info_set(info, "soft", "1:x");
        expect_spawn_error(argv[0], info, "soft that is not a list of counts");
        MPI_Info_set(info, "soft", "5:9");
        expect_spawn_error(argv[0], info, "soft that allows no count up to maxprocs");
        MPI_Info_delete(info, "soft");
        MPI_Info_set(info, "host", "elsewhere.example");
        expect_spawn_error(argv[0], info, "another host");
        MPI_Info_delete(info, "host");
        MPI_Info_set(info, "wdir", "/no/such/dir");
        expect_spawn_error(argv[0], info, "missing wdir");
        MPI_Info_free(&info);
        expect_spawn_error("/bin/false", MPI_INFO_NULL, "children that never connect");
    }
    MPI_Finalize();
    return mc_done("mpi_spawn");
}
