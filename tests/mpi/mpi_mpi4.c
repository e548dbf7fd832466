/* mpi_mpi4.c — the MPI-4.0/4.1/5.0 calls of issue 33, each with exact results and each invalid
 * argument's class: Comm_idup_with_info, Info_create_env, Info_get_string, MPI_ERRORS_ABORT,
 * the buffered-send buffers (flush, iflush, communicators' own, MPI_BUFFER_AUTOMATIC), the
 * status accessors, Request_get_status_all/any/some, Remove_error_*, Type_get_value_index,
 * Get_hw_resource_info and the ABI queries. Run at n = 1, 2, 4 (a ring: data to the right).
 * `mpi_mpi4 abort` ends the job through MPI_ERRORS_ABORT (an MPI_Send to an invalid rank). */
#include "mpi_mpi4/mpi_mpi4.h"

int size, left, right;

/* info's key has exactly the value want (NULL: the key is not set). */
void expect_info(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = -1;
    CHECK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
    if (!want && flag)
        FAIL("info key %s is \"%s\", expected unset", key, v);
    else if (want && !flag)
        FAIL("info key %s unset, expected \"%s\"", key, want);
    else if (want && strcmp(v, want) != 0)
        FAIL("info key %s is \"%s\", expected \"%s\"", key, v, want);
}

void expect_info_int(MPI_Info info, const char *key, long want)
{
    char w[32];
    snprintf(w, sizeof w, "%ld", want);
    expect_info(info, key, w);
}

static void test_idup_with_info(void)
{
    MPI_Comm parent, c;
    MPI_Info hints, got;
    MPI_Request rq;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_exact_length", "true"));
    CHECK(MPI_Comm_set_info(parent, hints));
    CHECK(MPI_Info_free(&hints));
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
    CHECK(MPI_Comm_idup_with_info(parent, hints, &c, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_get_info(c, &got));
    expect_info(got, "mpi_assert_no_any_tag", "true");
    expect_info(got, "mpi_assert_exact_length", NULL); /* the parent's hints stay behind */
    CHECK(MPI_Info_free(&got));
    int sum = -1, me = mc_rank;
    CHECK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    EXPECT_INT(sum, size * (size - 1) / 2);
    int cmp;
    CHECK(MPI_Comm_compare(parent, c, &cmp));
    EXPECT_INT(cmp, MPI_CONGRUENT);
    /* MPI_INFO_NULL: no hints at all */
    MPI_Comm c2;
    CHECK(MPI_Comm_idup_with_info(parent, MPI_INFO_NULL, &c2, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_get_info(c2, &got));
    expect_info(got, "mpi_assert_exact_length", NULL);
    CHECK(MPI_Info_free(&got));
    /* invalid arguments */
    EXPECT_INT(MPI_Comm_idup_with_info(MPI_COMM_NULL, hints, &c2, &rq), MPI_ERR_COMM);
    EXPECT_INT(MPI_Comm_idup_with_info(parent, (MPI_Info)12345, &c2, &rq), MPI_ERR_INFO);
    EXPECT_INT(MPI_Comm_idup_with_info(parent, hints, &c2, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Comm_idup_with_info(parent, hints, NULL, &rq), MPI_ERR_ARG);
    CHECK(MPI_Info_free(&hints));
    CHECK(MPI_Comm_free(&c2));
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&parent));
}

/* Made before MPI_Init (main): the same keys and values as one made now. */
/* An intercommunicator's idup_with_info (n >= 2): the lower and upper halves of the world;
 * the copy reaches the other group (a sum over it) and has info's hints. */
static void test_idup_with_info_inter(void)
{
    if (size < 2)
        return;
    int low = mc_rank < size / 2, nremote, sum = -1, me = mc_rank;
    MPI_Comm half, inter, c;
    MPI_Info hints, got;
    MPI_Request rq;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, low, mc_rank, &half));
    CHECK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 5, &inter));
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_allow_overtaking", "true"));
    CHECK(MPI_Comm_idup_with_info(inter, hints, &c, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_remote_size(c, &nremote));
    EXPECT_INT(nremote, low ? size - size / 2 : size / 2);
    CHECK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c)); /* the remote group's sum */
    int lo_sum = (size / 2) * (size / 2 - 1) / 2, all = size * (size - 1) / 2;
    EXPECT_INT(sum, low ? all - lo_sum : lo_sum);
    CHECK(MPI_Comm_get_info(c, &got));
    expect_info(got, "mpi_assert_allow_overtaking", "true");
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Info_free(&hints));
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&inter));
    CHECK(MPI_Comm_free(&half));
}

static void test_info_create_env(MPI_Info before, int argc, char **argv)
{
    static const char *const keys[] = {"command", "argv", "host", "arch", "wdir"};
    MPI_Info now;
    CHECK(MPI_Info_create_env(argc, argv, &now));
    int n1 = -1, n2 = -2;
    CHECK(MPI_Info_get_nkeys(before, &n1));
    CHECK(MPI_Info_get_nkeys(now, &n2));
    EXPECT_INT(n1, n2);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char v[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        CHECK(MPI_Info_get(now, keys[i], MPI_MAX_INFO_VAL, v, &flag));
        expect_info(before, keys[i], flag ? v : NULL);
    }
    CHECK(MPI_Info_free(&now));
    CHECK(MPI_Info_free(&before));

    char a0[] = "prog", a1[] = "a", a2[] = "b c", *av[] = {a0, a1, a2, NULL};
    MPI_Info info;
    CHECK(MPI_Info_create_env(3, av, &info));
    expect_info(info, "command", "prog");
    expect_info(info, "argv", "a b c");
    expect_info(info, "maxprocs", NULL);     /* not known before MPI_Init: never, so that it is */
    expect_info(info, "thread_level", NULL); /* the same object before, during and after */
    char host[MPI_MAX_PROCESSOR_NAME], cwd[4096];
    int len;
    CHECK(MPI_Get_processor_name(host, &len));
    expect_info(info, "host", host);
    if (getcwd(cwd, sizeof cwd))
        expect_info(info, "wdir", cwd);
    /* a new object the program owns: it may set and free it (MPI_INFO_ENV is read-only) */
    CHECK(MPI_Info_set(info, "command", "other"));
    CHECK(MPI_Info_free(&info));
    /* only argv[0]: no argv key */
    CHECK(MPI_Info_create_env(1, av, &info));
    expect_info(info, "command", "prog");
    expect_info(info, "argv", NULL);
    CHECK(MPI_Info_free(&info));
    /* no argv: the process's own command line, as MPI_INFO_ENV has it */
    char want[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, want, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Info_create_env(0, NULL, &info));
    expect_info(info, "command", want);
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(MPI_Info_create_env(0, NULL, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_create_env(-1, av, &info), MPI_ERR_ARG);
}

static void test_info_get_string(void)
{
    MPI_Info info;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "k", "hello"));
    char v[16];
    int buflen = 0, flag = -1;
    memset(v, 'x', sizeof v);
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag)); /* length only */
    EXPECT_INT(flag, 1);
    EXPECT_INT(buflen, 6);
    EXPECT_INT(v[0], 'x');
    buflen = 3; /* truncated: 2 characters and the NUL */
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag));
    EXPECT_INT(buflen, 6);
    if (memcmp(v, "he\0x", 4) != 0)
        FAIL("Info_get_string(buflen 3) gave \"%.4s\"", v);
    buflen = 16;
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag));
    EXPECT_INT(buflen, 6);
    if (strcmp(v, "hello") != 0)
        FAIL("Info_get_string gave \"%s\"", v);
    buflen = 6; /* exactly the value and its NUL */
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag));
    if (strcmp(v, "hello") != 0)
        FAIL("Info_get_string(buflen 6) gave \"%s\"", v);
    buflen = 9;
    strcpy(v, "same");
    CHECK(MPI_Info_get_string(info, "nokey", &buflen, v, &flag)); /* untouched when unset */
    EXPECT_INT(flag, 0);
    EXPECT_INT(buflen, 9);
    if (strcmp(v, "same") != 0)
        FAIL("Info_get_string of a missing key wrote \"%s\"", v);
    EXPECT_INT(MPI_Info_get_string(info, "k", NULL, v, &flag), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_get_string(info, "k", &buflen, v, NULL), MPI_ERR_ARG);
    buflen = -1;
    EXPECT_INT(MPI_Info_get_string(info, "k", &buflen, v, &flag), MPI_ERR_ARG);
    buflen = 4;
    EXPECT_INT(MPI_Info_get_string(info, "k", &buflen, NULL, &flag), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_get_string(info, NULL, &buflen, v, &flag), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_get_string(info, "", &buflen, v, &flag), MPI_ERR_INFO_KEY);
    EXPECT_INT(MPI_Info_get_string((MPI_Info)12345, "k", &buflen, v, &flag), MPI_ERR_INFO);
    EXPECT_INT(MPI_Info_get_string(MPI_INFO_NULL, "k", &buflen, v, &flag), MPI_ERR_INFO);
    CHECK(MPI_Info_free(&info));
}

static void test_errors_abort_handle(void)
{
    if (MPI_ERRORS_ABORT == MPI_ERRORS_ARE_FATAL || MPI_ERRORS_ABORT == MPI_ERRORS_RETURN ||
        MPI_ERRORS_ABORT == MPI_ERRHANDLER_NULL)
        FAIL("MPI_ERRORS_ABORT is %d, not a handle of its own", (int)MPI_ERRORS_ABORT);
    MPI_Comm c;
    MPI_Errhandler eh;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK(MPI_Comm_set_errhandler(c, MPI_ERRORS_ABORT));
    CHECK(MPI_Comm_get_errhandler(c, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ABORT);
    CHECK(MPI_Errhandler_free(&eh));
    EXPECT_INT(eh, MPI_ERRHANDLER_NULL);
    MPI_Comm d; /* inherited by a dup */
    CHECK(MPI_Comm_dup(c, &d));
    CHECK(MPI_Comm_get_errhandler(d, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ABORT);
    CHECK(MPI_Errhandler_free(&eh));
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_free(&c));
}

/* MPI_ERRORS_ABORT on MPI_COMM_WORLD, then an error on rank size - 1: the job ends. */
static void abort_mode(void)
{
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT));
    if (mc_rank == size - 1) {
        int v = 0;
        MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
        printf("mpi_mpi4: rank %d survived MPI_ERRORS_ABORT\n", mc_rank);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the others wait here for the end */
}

int main(int argc, char **argv)
{
    MPI_Info env_before = MPI_INFO_NULL;
    int env_rc = MPI_Info_create_env(argc, argv, &env_before);
    mc_init(&argc, &argv, 120);
    CHECK(env_rc);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (mc_rank + size - 1) % size;
    right = (mc_rank + 1) % size;
    if (argc > 1 && strcmp(argv[1], "abort") == 0) {
        abort_mode();
        MPI_Finalize();
        return 1;
    }
    int *out = malloc(sizeof(int) * BIG), *in = malloc(sizeof(int) * BIG);
    test_idup_with_info();
    test_idup_with_info_inter();
    test_info_create_env(env_before, argc, argv);
    test_info_get_string();
    test_errors_abort_handle();
    test_process_buffer(out, in);
    test_comm_buffer(out, in);
    test_automatic(out, in);
    test_status_fields();
    test_get_status_arrays();
    test_remove_error();
    test_value_index();
    test_hw_and_abi();
    /* a buffer left attached to MPI_COMM_WORLD, a message in it: finalize sends it and frees
     * the buffer (the ASan run's leak check says whether it did) */
    CHECK(MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0));
    fill(out, 4, mc_rank, 70);
    CHECK(MPI_Bsend(out, 4, MPI_INT, right, 70, MPI_COMM_WORLD));
    CHECK(MPI_Recv(in, 4, MPI_INT, left, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_fill(in, 4, left, 70, "buffer left attached to MPI_COMM_WORLD");
    free(out);
    free(in);
    CHECK(MPI_Finalize());
    return mc_done("mpi_mpi4");
}
