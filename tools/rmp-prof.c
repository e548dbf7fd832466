/* rmp-prof — reads the report RMP_PROFILE (or mrun --profile) left in a directory:
 *   rmp-prof DIR          prints its summary (summary.txt: mpiP's tables)
 *   rmp-prof --open DIR   prints where the page is (a file:// URL of report.html), for a browser
 * Exit status 0, 1 when DIR holds no report (one line says why), 2 for bad usage. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "usage: rmp-prof DIR | rmp-prof --open DIR\n"
                            "  DIR: the directory RMP_PROFILE=1 (./rmp-profile-<jobid>), "
                            "RMP_PROFILE=DIR or mrun --profile[=DIR] wrote\n";

static int print_summary(const char *dir)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "rmp-prof: %s: %s (is %s a profile directory?)\n", path, strerror(errno),
                dir);
        return 1;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, stdout) != n)
            break;
    int bad = ferror(f) || ferror(stdout);
    fclose(f);
    return bad ? 1 : 0;
}

static int print_page(const char *dir)
{
    char path[PATH_MAX + 32], real[PATH_MAX];
    snprintf(path, sizeof path, "%s/report.html", dir);
    if (!realpath(path, real)) {
        fprintf(stderr, "rmp-prof: %s: %s (is %s a profile directory?)\n", path, strerror(errno),
                dir);
        return 1;
    }
    printf("file://%s\n", real);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc == 2 && argv[1][0] != '-')
        return print_summary(argv[1]);
    if (argc == 3 && !strcmp(argv[1], "--open"))
        return print_page(argv[2]);
    fputs(usage, stderr);
    return 2;
}
