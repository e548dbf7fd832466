/* mpi_py_file.c — MPI_File as mpi4py's test_file.py checks it, on MPI_COMM_SELF of every rank:
 * a file made by mkstemp opened RDWR|CREATE, preallocate never shrinks, set/get size, the
 * group, the amode, info round trip (an empty info, then the file's own), views with every
 * displacement 0..99 (predefined etype/filetype come back as themselves), atomicity, sync,
 * seek (individual and shared) to the end/current/start, byte offsets, type extents, and the
 * error handlers: MPI_ERRORS_RETURN on a file and on MPI_FILE_NULL, settable and freeable. */
#include "mpicheck.h"

static void sizes(MPI_File fh)
{
    MPI_Offset sz = -1;
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 0);
    static const MPI_Offset pre[][2] = {{1, 1}, {100, 100}, {10, 100}, {200, 200}};
    for (int i = 0; i < 4; i++) {
        CHECK(MPI_File_preallocate(fh, pre[i][0]));
        CHECK(MPI_File_get_size(fh, &sz));
        EXPECT_INT(sz, pre[i][1]);
    }
    CHECK(MPI_File_set_size(fh, 100));
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 100);
}

static void group_amode_info(MPI_File fh, int amode)
{
    MPI_Group fg, cg;
    int cmp = -1, got = -1;
    CHECK(MPI_File_get_group(fh, &fg));
    CHECK(MPI_Comm_group(MPI_COMM_SELF, &cg));
    CHECK(MPI_Group_compare(fg, cg, &cmp));
    EXPECT_INT(cmp, MPI_IDENT);
    CHECK(MPI_Group_free(&fg));
    CHECK(MPI_Group_free(&cg));
    CHECK(MPI_File_get_amode(fh, &got));
    EXPECT_INT(got, amode);
    MPI_Info info;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_File_set_info(fh, info));
    CHECK(MPI_Info_free(&info));
    CHECK(MPI_File_get_info(fh, &info));
    CHECK(MPI_File_set_info(fh, info));
    CHECK(MPI_Info_free(&info));
}

static void views(MPI_File fh)
{
    MPI_Datatype types[] = {MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE};
    for (MPI_Offset disp = 0; disp < 100; disp++)
        for (int t = 0; t < 5; t++) {
            CHECK(MPI_File_set_view(fh, disp, types[t], types[t], "native", MPI_INFO_NULL));
            MPI_Offset d = -1;
            MPI_Datatype et = MPI_DATATYPE_NULL, ft = MPI_DATATYPE_NULL;
            char rep[MPI_MAX_DATAREP_STRING + 1] = "";
            CHECK(MPI_File_get_view(fh, &d, &et, &ft, rep));
            if (d != disp || et != types[t] || ft != types[t] || strcmp(rep, "native")) {
                FAIL("view %lld/%d: got disp %lld, etype %s, filetype %s, datarep '%s'",
                     (long long)disp, t, (long long)d, et == types[t] ? "same" : "other",
                     ft == types[t] ? "same" : "other", rep);
                return;
            }
        }
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
}

static void positions(MPI_File fh)
{
    MPI_Offset pos = -1, disp = -1;
    int whence[] = {MPI_SEEK_END, MPI_SEEK_CUR, MPI_SEEK_SET};
    for (int i = 0; i < 3; i++)
        CHECK(MPI_File_seek(fh, 0, whence[i]));
    CHECK(MPI_File_get_position(fh, &pos));
    EXPECT_INT(pos, 0);
    for (int i = 0; i < 3; i++)
        CHECK(MPI_File_seek_shared(fh, 0, whence[i]));
    pos = -1;
    CHECK(MPI_File_get_position_shared(fh, &pos));
    EXPECT_INT(pos, 0);
    for (MPI_Offset off = 0; off < 10; off++) {
        CHECK(MPI_File_get_byte_offset(fh, off, &disp));
        EXPECT_INT(disp, off);
    }
    MPI_Aint ext = -1;
    CHECK(MPI_File_get_type_extent(fh, MPI_BYTE, &ext));
    EXPECT_INT(ext, 1);
}

static void atomicity(MPI_File fh)
{
    int flag = -1;
    CHECK(MPI_File_get_atomicity(fh, &flag));
    EXPECT_INT(flag, 0);
    for (int i = 0; i < 8; i++) {
        CHECK(MPI_File_set_atomicity(fh, !(i & 1)));
        CHECK(MPI_File_get_atomicity(fh, &flag));
        EXPECT_INT(flag, !(i & 1));
    }
    CHECK(MPI_File_sync(fh));
}

/* A file's handler, and MPI_FILE_NULL's (the default for files opened later). */
static void errhandlers(MPI_File fh)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK(MPI_File_get_errhandler(fh, &eh));
    if (eh != MPI_ERRORS_RETURN)
        FAIL("a file's default handler is not MPI_ERRORS_RETURN");
    CHECK(MPI_Errhandler_free(&eh));
    MPI_Errhandler save;
    CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &save));
    if (save != MPI_ERRORS_RETURN)
        FAIL("MPI_FILE_NULL's default handler is not MPI_ERRORS_RETURN");
    MPI_Errhandler set[] = {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN};
    for (int i = 0; i < 2; i++) {
        CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, set[i]));
        CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
        if (eh != set[i])
            FAIL("MPI_FILE_NULL's handler %d did not stick", i);
        CHECK(MPI_Errhandler_free(&eh));
    }
    CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, save));
    CHECK(MPI_Errhandler_free(&save));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    char name[64];
    snprintf(name, sizeof name, "/tmp/mpi_py_file-%d-XXXXXX", mc_rank);
    int fd = mkstemp(name);
    if (fd < 0) {
        FAIL("mkstemp %s", name);
        MPI_Finalize();
        return 1;
    }
    close(fd);
    int amode = MPI_MODE_RDWR | MPI_MODE_CREATE;
    MPI_File fh = MPI_FILE_NULL;
    CHECK(MPI_File_open(MPI_COMM_SELF, name, amode, MPI_INFO_NULL, &fh));
    if (fh != MPI_FILE_NULL) {
        sizes(fh);
        group_amode_info(fh, amode);
        views(fh);
        positions(fh);
        atomicity(fh);
        errhandlers(fh);
        CHECK(MPI_File_close(&fh));
    }
    CHECK(MPI_File_delete(name, MPI_INFO_NULL));
    if (access(name, F_OK) == 0) {
        FAIL("%s still there after MPI_File_delete", name);
        unlink(name);
    }
    MPI_Finalize();
    return mc_done("mpi_py_file");
}
