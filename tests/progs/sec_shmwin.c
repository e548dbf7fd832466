/* sec_shmwin.c — a second local user after a job's one-sided window segments (test_security.c's
 * shm_window_segments): while the victim mrun (a child of PARENT) runs, it lists the job's
 * names in /dev/shm (rmp.mrun-<pid>...), tries to open each for reading and for writing, and
 * tries names of window segments it guesses (the rank part right, the random part not: 64 bits
 * from getrandom). A window segment is "-r<rank>.l<16 hex digits>".
 *   sec_shmwin PARENT SECONDS
 * Prints "shmwin: ready", then "shmwin: opened NAME" for any open that succeeded (the failure
 * the test looks for), and at the end "shmwin: W window segment(s), S other(s) seen, O opened,
 * G guessed". Not an rmp program: it never joins the job. */
#include <fcntl.h>
#include <sys/mman.h>

#include "sec_common.h"

static bool is_window(const char *name)
{
    const char *l = strstr(name, ".l");
    if (!l || !strstr(name, "-r") || strlen(l + 2) != 16)
        return false;
    for (const char *p = l + 2; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: sec_shmwin PARENT SECONDS\n");
        return 2;
    }
    double secs = atof(argv[2]);
    sec_say("shmwin: ready");
    long mrun = sec_wait_mrun(atol(argv[1]), secs);
    if (mrun < 0) {
        sec_say("shmwin: no mrun appeared within %.0f s", secs);
        return 1;
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "rmp.mrun-%ld", mrun);
    long windows = 0, others = 0, opened = 0, guessed = 0;
    char seen[64][256];
    int nseen = 0;
    double until = sec_now() + secs;
    while (sec_alive(mrun) && sec_now() < until) {
        DIR *d = opendir("/dev/shm");
        for (struct dirent *e; d && (e = readdir(d));) {
            if (strncmp(e->d_name, prefix, strlen(prefix)))
                continue;
            bool known = false;
            for (int i = 0; i < nseen && !known; i++)
                known = !strcmp(seen[i], e->d_name);
            if (!known && nseen < 64) {
                snprintf(seen[nseen++], sizeof seen[0], "%s", e->d_name);
                if (is_window(e->d_name))
                    windows++;
                else
                    others++;
            }
            char name[300];
            snprintf(name, sizeof name, "/%s", e->d_name);
            const int modes[] = {O_RDONLY, O_RDWR};
            for (int m = 0; m < 2; m++) {
                int fd = shm_open(name, modes[m] | O_CLOEXEC, 0);
                if (fd >= 0) {
                    opened++;
                    sec_say("shmwin: opened %s (%s)", name, m ? "read-write" : "read-only");
                    close(fd);
                } else if (errno != EACCES && errno != ENOENT) {
                    sec_say("shmwin: open %s: %s (expected EACCES)", name, strerror(errno));
                }
            }
            if (is_window(e->d_name)) { /* the same rank, another random part */
                char guess[300];
                size_t keep = strlen(name) - 16;
                for (int g = 0; g < 16; g++, guessed++) {
                    snprintf(guess, sizeof guess, "%.*s%016llx", (int)keep, name,
                             (unsigned long long)g * 0x1111111111111111ull);
                    int fd = shm_open(guess, O_RDWR | O_CLOEXEC, 0);
                    if (fd >= 0) {
                        opened++;
                        sec_say("shmwin: opened %s (a guessed name)", guess);
                        close(fd);
                    }
                }
            }
        }
        if (d)
            closedir(d);
        sec_sleep_ms(20);
    }
    sec_say("shmwin: %ld window segment(s), %ld other(s) seen, %ld opened, %ld guessed", windows,
            others, opened, guessed);
    return 0;
}
