/* mpi_port.c — ports, accept/connect, disconnect and join (issue 37), as MPICH's
 * spawn/connect tests check them: the world splits in two halves that meet through a port
 * (point-to-point both ways with exact bytes, a rendezvous-sized message, intercommunicator
 * collectives, merge, disconnect, a second meeting on the same port); then the error cases,
 * each on every rank of the group; then join. "server FILE" / "client FILE": two separate
 * mruns meet through a port name written to FILE. */
#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "mpicheck.h"

#define BIG (1 << 20) /* above every eager limit: the rendezvous path over sockets */

static int wsize;

/* Traffic both ways on intercomm ic (my group's rank r of lsize, remote group of rsize). */
static void traffic(MPI_Comm ic, bool acceptor)
{
    int r, lsize, rsize;
    CHECK(MPI_Comm_rank(ic, &r));
    CHECK(MPI_Comm_size(ic, &lsize));
    CHECK(MPI_Comm_remote_size(ic, &rsize));
    /* every rank of mine sends to every remote rank: value 1000*me + them */
    for (int k = 0; k < rsize; k++) {
        int v = 1000 * r + k + (acceptor ? 0 : 500000);
        CHECK(MPI_Send(&v, 1, MPI_INT, k, 7, ic));
    }
    for (int k = 0; k < rsize; k++) {
        int v = -1;
        MPI_Status st;
        CHECK(MPI_Recv(&v, 1, MPI_INT, k, 7, ic, &st));
        EXPECT_INT(v, 1000 * k + r + (acceptor ? 500000 : 0));
        EXPECT_INT(st.MPI_SOURCE, k);
    }
    /* a big one: remote rank 0 <-> my rank 0 */
    if (r == 0) {
        unsigned char *b = malloc(BIG);
        for (int i = 0; i < BIG; i++)
            b[i] = (unsigned char)(i * 7 + acceptor);
        MPI_Request q;
        CHECK(MPI_Isend(b, BIG, MPI_BYTE, 0, 8, ic, &q));
        unsigned char *in = malloc(BIG);
        CHECK(MPI_Recv(in, BIG, MPI_BYTE, 0, 8, ic, MPI_STATUS_IGNORE));
        CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE));
        for (int i = 0; i < BIG; i++)
            if (in[i] != (unsigned char)(i * 7 + !acceptor)) {
                FAIL("big message: byte %d is %d", i, in[i]);
                break;
            }
        free(b);
        free(in);
    }
    /* collectives: bcast from acceptor rank 0, allreduce of ranks + 1 */
    int v = acceptor && r == 0 ? 4242 : -1;
    CHECK(MPI_Bcast(&v, 1, MPI_INT, acceptor ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic));
    if (!acceptor)
        EXPECT_INT(v, 4242);
    int mine = r + 1, sum = 0;
    CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    EXPECT_INT(sum, rsize * (rsize + 1) / 2);
    CHECK(MPI_Barrier(ic));
    /* merge: the acceptors first */
    MPI_Comm m;
    CHECK(MPI_Intercomm_merge(ic, acceptor ? 0 : 1, &m));
    int mr, ms;
    CHECK(MPI_Comm_rank(m, &mr));
    CHECK(MPI_Comm_size(m, &ms));
    EXPECT_INT(ms, lsize + rsize);
    EXPECT_INT(mr, acceptor ? r : rsize + r);
    int all = 0;
    CHECK(MPI_Allreduce(&mr, &all, 1, MPI_INT, MPI_SUM, m));
    EXPECT_INT(all, ms * (ms - 1) / 2);
    CHECK(MPI_Comm_disconnect(&m));
}

/* The two halves meet twice on one port (the second after a disconnect). */
static void halves(void)
{
    int rank = mc_rank, half = wsize / 2;
    bool acceptor = rank < half;
    MPI_Comm mine;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, acceptor, rank, &mine));
    char port[MPI_MAX_PORT_NAME] = {0};
    if (rank == 0) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, half, 1, MPI_COMM_WORLD));
    } else if (rank == half) {
        CHECK(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    }
    for (int round = 0; round < 2; round++) {
        MPI_Comm ic = MPI_COMM_NULL;
        if (acceptor)
            CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, mine, &ic));
        else
            CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, mine, &ic));
        if (ic == MPI_COMM_NULL) {
            FAIL("round %d: no intercommunicator", round);
            break;
        }
        int flag = 0;
        CHECK(MPI_Comm_test_inter(ic, &flag));
        EXPECT_INT(flag, 1);
        traffic(ic, acceptor);
        CHECK(MPI_Comm_disconnect(&ic));
        if (ic != MPI_COMM_NULL)
            FAIL("disconnect left the handle set");
    }
    if (rank == 0)
        CHECK(MPI_Close_port(port));
    CHECK(MPI_Comm_free(&mine));
}

static void expect_class(int rc, int cls, const char *what)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    if (c != cls)
        FAIL("%s: error class %d, expected %d", what, c, cls);
}

/* Every error on every rank of the group (MPI_COMM_WORLD), none hangs. */
static void errors(void)
{
    MPI_Comm ic = MPI_COMM_NULL;
    MPI_Info one;
    CHECK(MPI_Info_create(&one));
    CHECK(MPI_Info_set(one, "timeout", "1"));
    expect_class(MPI_Comm_connect("no such port", one, 0, MPI_COMM_WORLD, &ic), MPI_ERR_PORT,
                 "connect to garbage");
    /* a closed port: its name is known, nothing listens */
    char port[MPI_MAX_PORT_NAME] = {0};
    if (mc_rank == 0) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(MPI_Close_port(port));
    }
    CHECK(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
    expect_class(MPI_Comm_connect(port, one, 0, MPI_COMM_WORLD, &ic), MPI_ERR_PORT,
                 "connect to a closed port");
    expect_class(MPI_Close_port(port), MPI_ERR_PORT, "close a closed port");
    if (mc_rank == 0)
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
    /* nobody connects: the accept times out */
    expect_class(MPI_Comm_accept(port, one, 0, MPI_COMM_WORLD, &ic), MPI_ERR_PORT,
                 "accept with nobody connecting");
    if (wsize > 1) /* not rank 1's port */
        expect_class(MPI_Comm_accept(port, one, 1, MPI_COMM_WORLD, &ic), MPI_ERR_PORT,
                     "accept on another process's port");
    /* nobody accepts on an open port: the connect times out (the port is rank 0's; the last
     * rank is the root that connects) */
    expect_class(MPI_Comm_connect(port, one, wsize - 1, MPI_COMM_WORLD, &ic), MPI_ERR_PORT,
                 "connect with nobody accepting");
    if (ic != MPI_COMM_NULL)
        FAIL("a failed call set the new communicator");
    if (mc_rank == 0)
        CHECK(MPI_Close_port(port));
    CHECK(MPI_Info_free(&one));
}

/* MPI_Comm_join between world ranks 0 and 1 over a socket rank 0 listens on. */
static void join(void)
{
    if (mc_rank > 1)
        return;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int fd = -1;
    if (mc_rank == 0) {
        snprintf(a.sun_path, sizeof a.sun_path, "/tmp/mpi_port_join_%d", (int)getpid());
        int l = socket(AF_UNIX, SOCK_STREAM, 0);
        unlink(a.sun_path);
        if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1))
            FAIL("join: listen: %s", strerror(errno));
        CHECK(MPI_Send(a.sun_path, sizeof a.sun_path, MPI_CHAR, 1, 2, MPI_COMM_WORLD));
        fd = accept(l, NULL, NULL);
        close(l);
        unlink(a.sun_path);
    } else {
        CHECK(MPI_Recv(a.sun_path, sizeof a.sun_path, MPI_CHAR, 0, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr *)&a, sizeof a))
            FAIL("join: connect: %s", strerror(errno));
    }
    MPI_Comm ic = MPI_COMM_NULL;
    CHECK(MPI_Comm_join(fd, &ic));
    int rs = 0, v = 77 + mc_rank, got = -1;
    CHECK(MPI_Comm_remote_size(ic, &rs));
    EXPECT_INT(rs, 1);
    CHECK(MPI_Sendrecv(&v, 1, MPI_INT, 0, 3, &got, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE));
    EXPECT_INT(got, 77 + !mc_rank);
    CHECK(MPI_Comm_disconnect(&ic));
    close(fd);
}

/* Names: rank 0 publishes, every rank looks up the same port; unpublished, lookup and
 * unpublish fail with their classes. */
static void names(void)
{
    char svc[64], port[MPI_MAX_PORT_NAME] = {0}, got[MPI_MAX_PORT_NAME] = {0};
    snprintf(svc, sizeof svc, "mpi_port-%d", (int)getppid()); /* one per job: mrun's pid */
    if (mc_rank == 0) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(MPI_Publish_name(svc, MPI_INFO_NULL, port));
    }
    CHECK(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
    CHECK(MPI_Lookup_name(svc, MPI_INFO_NULL, got));
    if (strcmp(got, port))
        FAIL("lookup gave '%s', published '%s'", got, port);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (mc_rank == 0) {
        CHECK(MPI_Unpublish_name(svc, MPI_INFO_NULL, port));
        expect_class(MPI_Unpublish_name(svc, MPI_INFO_NULL, port), MPI_ERR_SERVICE,
                     "unpublish twice");
        CHECK(MPI_Close_port(port));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    expect_class(MPI_Lookup_name(svc, MPI_INFO_NULL, got), MPI_ERR_NAME, "lookup unpublished");
}

/* Two separate mruns: the server's rank 0 writes its port name to file (or publishes it under
 * the service name, "server-name"), the client's reads it; both groups whole. */
static void two_jobs(const char *role, const char *file)
{
    bool server = !strncmp(role, "server", 6), by_name = strstr(role, "-name") != NULL;
    char port[MPI_MAX_PORT_NAME] = {0};
    if (server && mc_rank == 0) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        char tmp[600];
        snprintf(tmp, sizeof tmp, "%s.tmp", file);
        FILE *f = by_name ? NULL : fopen(tmp, "w");
        if (by_name)
            CHECK(MPI_Publish_name(file, MPI_INFO_NULL, port));
        else if (!f || fprintf(f, "%s\n", port) < 0 || fclose(f) || rename(tmp, file))
            FAIL("cannot write %s", file);
    } else if (mc_rank == 0) {
        for (int i = 0; i < 600; i++) { /* the server may start later */
            if (by_name && MPI_Lookup_name(file, MPI_INFO_NULL, port) == MPI_SUCCESS)
                break;
            FILE *f = by_name ? NULL : fopen(file, "r");
            if (f && fgets(port, sizeof port, f)) {
                port[strcspn(port, "\n")] = '\0';
                fclose(f);
                break;
            }
            if (f)
                fclose(f);
            usleep(50000);
        }
    }
    MPI_Comm ic = MPI_COMM_NULL;
    if (server)
        CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    else
        CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    if (ic != MPI_COMM_NULL) {
        traffic(ic, server);
        CHECK(MPI_Comm_disconnect(&ic));
    }
    if (server && mc_rank == 0) {
        if (by_name)
            CHECK(MPI_Unpublish_name(file, MPI_INFO_NULL, port));
        CHECK(MPI_Close_port(port));
        if (!by_name)
            unlink(file);
    }
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* ports' and names' errors */
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (argc == 3) {
        two_jobs(argv[1], argv[2]);
    } else {
        if (wsize > 1)
            halves();
        errors();
        names();
        if (wsize > 1)
            join();
    }
    MPI_Finalize();
    return mc_done("mpi_port");
}
