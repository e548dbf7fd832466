/* mpi_io.c — MPI-IO's file calls: open with every access mode (and the invalid ones), close,
 * delete, size, preallocate, group, amode, hints reported with values, sync, atomicity, the
 * error handlers of files (MPI_ERRORS_RETURN by default, MPI_FILE_NULL's for opens), and the
 * I/O error classes where the file system produces them: no such file, file exists, read-only,
 * access (as nobody when run as root), no space (a 64 KiB tmpfs when root may mount one). */
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <sys/mount.h>

#include "mpi_io.h"

static void t_amodes(void)
{
    MPI_File fh;
    const char *p = io_path("amode");
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                               MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_EXCL,
                               MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                               MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_WRONLY,
                               MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE, MPI_INFO_NULL, &fh),
                 MPI_ERR_AMODE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
                 MPI_ERR_NO_SUCH_FILE);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, "", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
                 MPI_ERR_BAD_FILE);
    /* create + excl: made once, then FILE_EXISTS on every rank */
    int am = MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_UNIQUE_OPEN, got;
    CHECK(MPI_File_open(MPI_COMM_WORLD, p, am, MPI_INFO_NULL, &fh));
    CHECK(MPI_File_get_amode(fh, &got));
    EXPECT_INT(got, am);
    CHECK(MPI_File_close(&fh));
    EXPECT_INT(fh, MPI_FILE_NULL);
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, am, MPI_INFO_NULL, &fh), MPI_ERR_FILE_EXISTS);
    /* ufs: prefix (ROMIO's) names the same file */
    char up[600];
    snprintf(up, sizeof up, "ufs:%s", p);
    CHECK(MPI_File_open(MPI_COMM_WORLD, up, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mc_rank == 0)
        CHECK(MPI_File_delete(p, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_CLASS(MPI_File_delete(p, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);
    /* delete on close: gone after the close */
    CHECK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK(MPI_File_close(&fh));
    if (access(p, F_OK) == 0)
        FAIL("DELETE_ON_CLOSE left %s", p);
}

static void t_size_group(void)
{
    MPI_File fh;
    MPI_Offset sz;
    const char *p = io_path("size");
    CHECK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    CHECK(MPI_File_set_size(fh, 1000));
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 1000);
    CHECK(MPI_File_preallocate(fh, 500)); /* never shrinks */
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 1000);
    CHECK(MPI_File_preallocate(fh, 4096));
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 4096);
    CHECK(MPI_File_set_size(fh, 10));
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 10);
    EXPECT_CLASS(MPI_File_set_size(fh, -1), MPI_ERR_ARG);
    MPI_Group g, wg;
    int res;
    CHECK(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &res);
    EXPECT_INT(res, MPI_IDENT);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    int flag = 1;
    CHECK(MPI_File_get_atomicity(fh, &flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_File_set_atomicity(fh, 1));
    CHECK(MPI_File_get_atomicity(fh, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_File_sync(fh));
    CHECK(MPI_File_close(&fh));
    /* read-only: no size change, no write */
    CHECK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY);
    int x = 1;
    EXPECT_CLASS(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY);
    CHECK(MPI_File_get_size(fh, &sz));
    EXPECT_INT(sz, 10); /* the file unchanged */
    CHECK(MPI_File_close(&fh));
    /* write-only: no read */
    CHECK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    EXPECT_CLASS(MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS);
    EXPECT_CLASS(MPI_File_write_at(fh, -1, &x, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_File_write_at(fh, 0, &x, -1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_File_write_at(fh, 0, &x, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE),
                 MPI_ERR_TYPE);
    CHECK(MPI_File_close(&fh));
    /* an invalid handle: MPI_FILE_NULL's handler, MPI_ERR_FILE */
    EXPECT_CLASS(MPI_File_get_size(MPI_FILE_NULL, &sz), MPI_ERR_FILE);
    EXPECT_CLASS(MPI_File_get_size(fh, &sz), MPI_ERR_FILE);
}

/* get_info reports every hint in force with its value, the ones given included. */
static void t_hints(void)
{
    MPI_File fh;
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "1048576");
    MPI_Info_set(info, "romio_cb_write", "disable");
    MPI_Info_set(info, "no_such_hint", "1");
    CHECK(MPI_File_open(MPI_COMM_WORLD, io_path("hints"), MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, info, &fh));
    CHECK(MPI_File_get_info(fh, &used));
    char v[MPI_MAX_INFO_VAL + 1];
    int flag;
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || strcmp(v, "1048576"))
        FAIL("cb_buffer_size reported %s", flag ? v : "(none)");
    MPI_Info_get(used, "romio_cb_write", MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || strcmp(v, "disable"))
        FAIL("romio_cb_write reported %s", flag ? v : "(none)");
    MPI_Info_get(used, "romio_cb_read", MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || strcmp(v, "automatic"))
        FAIL("romio_cb_read (default) reported %s", flag ? v : "(none)");
    MPI_Info_get(used, "cb_nodes", MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || atoi(v) < 1)
        FAIL("cb_nodes reported %s", flag ? v : "(none)");
    MPI_Info_get(used, "no_such_hint", MPI_MAX_INFO_VAL, v, &flag);
    if (flag)
        FAIL("an unknown hint was reported as used");
    MPI_Info_free(&used);
    MPI_Info_set(info, "cb_buffer_size", "65536");
    CHECK(MPI_File_set_info(fh, info));
    CHECK(MPI_File_get_info(fh, &used));
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || strcmp(v, "65536"))
        FAIL("cb_buffer_size after set_info reported %s", flag ? v : "(none)");
    MPI_Info_free(&used);
    MPI_Info_free(&info);
    CHECK(MPI_File_close(&fh));
}

static int eh_calls, eh_code;
static MPI_File eh_file;
static void file_eh(MPI_File *f, int *code, ...)
{
    eh_calls++;
    eh_code = *code;
    eh_file = *f;
}

static void t_errhandlers(void)
{
    MPI_Errhandler eh, got;
    MPI_File fh;
    CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    EXPECT_INT(got, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    CHECK(MPI_File_create_errhandler(file_eh, &eh));
    /* MPI_FILE_NULL's handler takes the errors of open */
    CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    int rc = MPI_File_open(MPI_COMM_WORLD, io_path("none"), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    EXPECT_INT(eh_calls, 1);
    EXPECT_INT(eh_code, rc);
    EXPECT_INT(eh_file, MPI_FILE_NULL);
    CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    /* a file's own handler, and call_errhandler */
    CHECK(MPI_File_open(MPI_COMM_WORLD, io_path("eh"), MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK(MPI_File_get_errhandler(fh, &got));
    EXPECT_INT(got, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    CHECK(MPI_File_set_errhandler(fh, eh));
    CHECK(MPI_File_get_errhandler(fh, &got));
    EXPECT_INT(got, eh);
    MPI_Errhandler_free(&got);
    int x;
    rc = MPI_File_read_at(fh, -5, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
    EXPECT_INT(eh_calls, 2);
    EXPECT_INT(eh_file, fh);
    CHECK(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    EXPECT_INT(eh_calls, 3);
    EXPECT_INT(eh_code, MPI_ERR_IO);
    /* a comm handler does not fit a file */
    MPI_Errhandler ceh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &ceh);
    CHECK(MPI_File_close(&fh));
    MPI_Errhandler_free(&ceh);
    MPI_Errhandler_free(&eh);
    EXPECT_INT(MPI_File_c2f(MPI_FILE_NULL), 0);
    EXPECT_INT(MPI_File_f2c(0), MPI_FILE_NULL);
}

/* EACCES: as nobody when root (root reads anything), else a file of mode 000. */
static void t_access(void)
{
    MPI_File fh;
    const char *p = io_path("noaccess");
    CHECK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    CHECK(MPI_File_close(&fh));
    if (mc_rank == 0)
        chmod(p, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    struct passwd *nobody = getpwnam("nobody");
    bool as_nobody = geteuid() == 0 && nobody;
    if (geteuid() == 0 && !nobody) {
        if (mc_rank == 0)
            printf("skip: permission denied (root, and no user nobody to become)\n");
        return;
    }
    if (as_nobody && seteuid(nobody->pw_uid) != 0) {
        FAIL("seteuid(nobody): %s", strerror(errno));
        return;
    }
    EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
                 MPI_ERR_ACCESS);
    if (as_nobody && seteuid(0) != 0)
        FAIL("seteuid(0): %s", strerror(errno));
}

/* ENOSPC: writes beyond a 64 KiB tmpfs, reported as MPI_ERR_NO_SPACE on every rank of the
 * collective write, and the message names the file. */
static void t_nospace(void)
{
    char mnt[600];
    snprintf(mnt, sizeof mnt, "%s/small", io_dir);
    int ok = 1;
    if (mc_rank == 0 && (mkdir(mnt, 0777) != 0 ||
                         mount("tmpfs", mnt, "tmpfs", 0, "size=64k,mode=0777") != 0)) {
        printf("skip: disk full (mount tmpfs: %s)\n", strerror(errno));
        ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok) {
        MPI_File fh;
        char p[700];
        snprintf(p, sizeof p, "%s/full", mnt);
        CHECK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL,
                            &fh));
        enum { N = 128 * 1024 };
        char *buf = calloc(N, 1);
        EXPECT_CLASS(MPI_File_write_at_all(fh, (MPI_Offset)mc_rank * N, buf, N, MPI_BYTE,
                                           MPI_STATUS_IGNORE), MPI_ERR_NO_SPACE);
        free(buf);
        MPI_File_close(&fh);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (ok && mc_rank == 0 && umount(mnt) != 0)
        FAIL("umount %s: %s", mnt, strerror(errno));
    if (mc_rank == 0)
        rmdir(mnt);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 60);
    io_dir_make();
    t_amodes();
    t_size_group();
    t_hints();
    t_errhandlers();
    t_access();
    t_nospace();
    io_dir_remove();
    int r = mc_done("mpi_io");
    MPI_Finalize();
    return r;
}
