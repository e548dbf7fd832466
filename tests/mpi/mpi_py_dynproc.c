/* mpi_py_dynproc.c — ports as mpi4py's test_dynproc.py uses them (at n >= 2): every rank
 * publishing a service of its own at once and looking it up; rank 0 accepting on
 * MPI_COMM_SELF while the others connect from a communicator made by MPI_Comm_create (and
 * the other way round, the port closed right after the accept), a bcast from MPI_ROOT of a
 * length and then the bytes (mpi4py's pickled bcast), the intercommunicator released by
 * MPI_Comm_free rather than disconnect; and MPI_Comm_join over a TCP socket on this host. */
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>

#include "mpicheck.h"

static int wrank, wsize;
static const char msg[] = "mpi4py: None True False -7 0 7 -2.17 (1, 2, 3) {1: 2}";

static void names(void)
{
    char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "", service[32];
    snprintf(service, sizeof service, "mpi4py-%d-%d", wrank, (int)getppid());
    CHECK(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK(MPI_Publish_name(service, MPI_INFO_NULL, port));
    CHECK(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    if (strcmp(port, found))
        FAIL("Lookup_name(%s) gave '%s', published '%s'", service, found, port);
    CHECK(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    CHECK(MPI_Close_port(port));
}

/* mpi4py's bcast of an object: its length, then its bytes; root is the sending side's. */
static void pickled_bcast(MPI_Comm ic, bool sender)
{
    int len = sender ? (int)sizeof msg : -1;
    char buf[sizeof msg] = "";
    int root = sender ? MPI_ROOT : 0;
    CHECK(MPI_Bcast(&len, 1, MPI_INT, root, ic));
    if (!sender && len != (int)sizeof msg) {
        FAIL("bcast length %d, expected %zu", len, sizeof msg);
        return;
    }
    CHECK(MPI_Bcast(sender ? (void *)msg : buf, len, MPI_BYTE, root, ic));
    if (!sender && memcmp(buf, msg, sizeof msg))
        FAIL("bcast bytes differ: '%.*s'", (int)sizeof buf, buf);
}

/* The world less rank 0 (MPI_COMM_NULL at 0), as test_dynproc.py makes it. */
static MPI_Comm others(void)
{
    MPI_Group wg, g;
    MPI_Comm c = MPI_COMM_NULL;
    int zero = 0;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK(MPI_Group_excl(wg, 1, &zero, &g));
    CHECK(MPI_Group_free(&wg));
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
    CHECK(MPI_Group_free(&g));
    if ((wrank == 0) != (c == MPI_COMM_NULL))
        FAIL("MPI_Comm_create: rank %d got %s", wrank, c == MPI_COMM_NULL ? "null" : "a comm");
    return c;
}

static void expect_sizes(MPI_Comm ic, int lsize, int rsize, int rank)
{
    int l = -1, r = -1, me = -1;
    CHECK(MPI_Comm_size(ic, &l));
    CHECK(MPI_Comm_remote_size(ic, &r));
    CHECK(MPI_Comm_rank(ic, &me));
    EXPECT_INT(l, lsize);
    EXPECT_INT(r, rsize);
    EXPECT_INT(me, rank);
}

/* zero_accepts: rank 0 accepts on SELF (testAcceptConnect); else it connects to a port rank 1
 * opened, and the others accept (testConnectAccept). */
static void meet(bool zero_accepts)
{
    MPI_Comm c = others(), ic = MPI_COMM_NULL;
    char port[MPI_MAX_PORT_NAME] = "";
    int opener = zero_accepts ? 0 : 1, taker = 1 - opener;
    if (wrank == opener) {
        CHECK(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, taker, 1, MPI_COMM_WORLD));
    } else if (wrank == taker) {
        CHECK(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, opener, 1, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    }
    if (wrank == 0 && zero_accepts)
        CHECK(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
    else if (wrank == 0)
        CHECK(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
    else if (zero_accepts)
        CHECK(MPI_Comm_connect(wrank == 1 ? port : NULL, MPI_INFO_NULL, 0, c, &ic));
    else
        CHECK(MPI_Comm_accept(wrank == 1 ? port : NULL, MPI_INFO_NULL, 0, c, &ic));
    if (wrank == opener)
        CHECK(MPI_Close_port(port));
    if (ic == MPI_COMM_NULL)
        return;
    if (wrank == 0)
        expect_sizes(ic, 1, wsize - 1, 0);
    else
        expect_sizes(ic, wsize - 1, 1, wrank - 1);
    pickled_bcast(ic, wrank == 0);
    CHECK(MPI_Comm_free(&ic));
    if (c != MPI_COMM_NULL)
        CHECK(MPI_Comm_free(&c));
}

/* testJoin: rank 0 listens on this host's name (IPv4), rank 1 connects; the two join. */
static void join(void)
{
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai = NULL;
    int ok = getaddrinfo(host, NULL, &hints, &ai) == 0, all = 0;
    CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    if (!all) { /* as mpi4py: no IPv4 address for the host name, nothing to test */
        if (ai)
            freeaddrinfo(ai);
        return;
    }
    struct sockaddr_in sa = *(struct sockaddr_in *)ai->ai_addr;
    freeaddrinfo(ai);
    int fd = -1, lfd = -1;
    socklen_t len = sizeof sa;
    if (wrank == 0) {
        lfd = socket(AF_INET, SOCK_STREAM, 0);
        sa.sin_port = 0;
        if (bind(lfd, (struct sockaddr *)&sa, len) || listen(lfd, 1) ||
            getsockname(lfd, (struct sockaddr *)&sa, &len))
            FAIL("cannot listen on %s", host);
        CHECK(MPI_Ssend(&sa.sin_port, (int)sizeof sa.sin_port, MPI_BYTE, 1, 2, MPI_COMM_WORLD));
    } else if (wrank == 1) {
        CHECK(MPI_Recv(&sa.sin_port, (int)sizeof sa.sin_port, MPI_BYTE, 0, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0) {
        fd = accept(lfd, NULL, NULL);
        close(lfd);
    } else if (wrank == 1) {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr *)&sa, len))
            FAIL("cannot connect to %s", host);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (fd >= 0) {
        MPI_Comm ic = MPI_COMM_NULL;
        CHECK(MPI_Comm_join(fd, &ic));
        close(fd);
        if (ic != MPI_COMM_NULL) {
            expect_sizes(ic, 1, 1, 0);
            pickled_bcast(ic, wrank == 0);
            CHECK(MPI_Comm_free(&ic));
        }
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    wrank = mc_rank;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    names();
    if (wsize >= 2) { /* as test_dynproc.py: the rest needs two ranks */
        meet(true);
        meet(false);
        join();
    }
    MPI_Finalize();
    return mc_done("mpi_py_dynproc");
}
