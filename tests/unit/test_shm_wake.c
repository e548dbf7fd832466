/* test_shm_wake.c — unit tests of shm's futex wakeup on its own (shm_wake.h): what a sender does
 * for each value of the word (a peer's garbage included), that a wait ends at once once the
 * word changed, bounded waits, and no lost wakeup over 100k hand-offs between two processes
 * (and between threads, for TSan) and with three senders racing to wake one sleeper. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "transport/shm/shm_wake.h"

/* A wait that lasts this long means a wakeup was lost: the partner always answers at once. */
#define WAKE_LOST_MS 5000
#define WAKE_LOST_GIVE_UP 3 /* then the test has failed: end it without waiting out the rest */
#define HANDOFFS 100000
#define FANIN_SENDERS 3
#define FANIN_EACH 10000

/* One side of the test: the word it sleeps on and the counter its partner bumps for it (the
 * "ring": a record is a new count). Both in one MAP_SHARED page, like a segment's header. */
typedef struct side {
    _Alignas(64) atomic_uint word;
    _Alignas(64) atomic_uint posted[FANIN_SENDERS];
} side_t;

typedef struct shared {
    side_t side[2];
    atomic_uint lost; /* waits that timed out although a record was coming */
} shared_t;

static shared_t *shared_new(void)
{
    void *m = mmap(NULL, sizeof(shared_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    cr_assert_neq(m, MAP_FAILED, "mmap: %s", strerror(errno));
    memset(m, 0, sizeof(shared_t));
    return m;
}

/* The sleeper's side of the protocol, as shm_wait does it: announce, look, sleep. Returns
 * once posted[from] differs from `seen`. */
static unsigned sleep_until_posted(shared_t *sh, side_t *me, int from, unsigned seen)
{
    for (;;) {
        unsigned now = atomic_load_explicit(&me->posted[from], memory_order_acquire);
        if (now != seen)
            return now;
        shm_wake_announce(&me->word, SHM_WAKE_FUTEX);
        now = atomic_load_explicit(&me->posted[from], memory_order_acquire);
        if (now != seen) {
            shm_wake_cancel(&me->word);
            return now;
        }
        int e = shm_wake_wait(&me->word, WAKE_LOST_MS);
        shm_wake_cancel(&me->word);
        if (e == ETIMEDOUT) {
            if (atomic_fetch_add(&sh->lost, 1) + 1 >= WAKE_LOST_GIVE_UP) {
                fprintf(stderr, "%d wakeups lost: giving up\n", WAKE_LOST_GIVE_UP);
                abort();
            }
        } else if (e && e != EINTR) {
            fprintf(stderr, "shm_wake_wait: %s\n", strerror(e));
            abort(); /* a crash: the test (or the child's exit status) fails */
        }
    }
}

/* The sender's side, as shm_send + bell_ring do it with the fence (oversubscribed). */
static void post(side_t *to, int from)
{
    atomic_fetch_add_explicit(&to->posted[from], 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    shm_wake_poke(&to->word);
}

/* Ping-pong: side `me` waits for its partner's n-th record, then posts its own. */
static void ping_pong(shared_t *sh, int me, int n)
{
    side_t *mine = &sh->side[me], *theirs = &sh->side[1 - me];
    unsigned seen = 0;
    for (int i = 0; i < n; i++) {
        if (me == 1 || i > 0)
            seen = sleep_until_posted(sh, mine, 0, seen);
        post(theirs, 0);
    }
}

Test(shm_wake, poke_takes_the_announcement, .timeout = 30)
{
    atomic_uint w;
    atomic_init(&w, SHM_WAKE_AWAKE);
    cr_assert(shm_wake_usable(&w), "futex refused: %s", strerror(errno));
    cr_assert_eq(shm_wake_poke(&w), SHM_WAKE_AWAKE);
    cr_assert_eq(atomic_load(&w), SHM_WAKE_AWAKE);
    shm_wake_announce(&w, SHM_WAKE_FUTEX);
    cr_assert_eq(shm_wake_poke(&w), SHM_WAKE_FUTEX);
    cr_assert_eq(atomic_load(&w), SHM_WAKE_AWAKE, "the first sender takes it");
    cr_assert_eq(shm_wake_poke(&w), SHM_WAKE_AWAKE, "the next one has nothing to do");
    shm_wake_announce(&w, SHM_WAKE_BELL);
    cr_assert_eq(shm_wake_poke(&w), SHM_WAKE_BELL);
    cr_assert_eq(atomic_load(&w), SHM_WAKE_AWAKE);
    atomic_store(&w, 0xdeadbeefu); /* a broken peer's scribble: a doorbell, nothing worse */
    cr_assert_eq(shm_wake_poke(&w), SHM_WAKE_BELL);
    cr_assert_eq(atomic_load(&w), SHM_WAKE_AWAKE);
}

Test(shm_wake, wait_returns_at_once_when_the_word_changed, .timeout = 30)
{
    atomic_uint w;
    atomic_init(&w, SHM_WAKE_AWAKE);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_assert_eq(shm_wake_wait(&w, 10000), 0, "a sender took the word: no sleep");
    atomic_store(&w, SHM_WAKE_BELL);
    cr_assert_eq(shm_wake_wait(&w, 10000), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert_lt(t1.tv_sec - t0.tv_sec, 5, "FUTEX_WAIT slept although the word differed");
}

Test(shm_wake, wait_is_bounded, .timeout = 30)
{
    atomic_uint w;
    shm_wake_announce(&w, SHM_WAKE_FUTEX);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_assert_eq(shm_wake_wait(&w, 20), ETIMEDOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    cr_assert_geq(ms, 19, "woke after %ld ms of a 20 ms wait", ms);
    cr_assert_eq(atomic_load(&w), SHM_WAKE_FUTEX, "a timeout leaves the word to its owner");
}

/* The shared futex across two processes, as between two ranks: every hand-off wakes the
 * partner, none is lost (a lost one would end a wait by its WAKE_LOST_MS timeout). */
Test(shm_wake, no_lost_wakeup_two_processes, .timeout = 120)
{
    shared_t *sh = shared_new();
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failed test leaves no process behind */
        ping_pong(sh, 1, HANDOFFS);
        _exit(0);
    }
    ping_pong(sh, 0, HANDOFFS);
    /* The child's last record: it has posted all it will. */
    unsigned last = sleep_until_posted(sh, &sh->side[0], 0, HANDOFFS - 1);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
    cr_assert_eq(last, HANDOFFS);
    cr_assert_eq(atomic_load(&sh->side[1].posted[0]), HANDOFFS);
    cr_assert_eq(atomic_load(&sh->lost), 0, "%u wakeups lost", atomic_load(&sh->lost));
    munmap(sh, sizeof(*sh));
}

typedef struct pp_arg {
    shared_t *sh;
    int me;
} pp_arg_t;

static void *pp_thread(void *a)
{
    pp_arg_t *p = a;
    ping_pong(p->sh, p->me, HANDOFFS / 10);
    return NULL;
}

/* The same between two threads: what TSan can watch (it sees the atomics, not the kernel). */
Test(shm_wake, no_lost_wakeup_two_threads, .timeout = 120)
{
    shared_t *sh = shared_new();
    pthread_t t;
    pp_arg_t a = {sh, 1};
    cr_assert_eq(pthread_create(&t, NULL, pp_thread, &a), 0);
    ping_pong(sh, 0, HANDOFFS / 10);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_assert_eq(atomic_load(&sh->side[1].posted[0]), HANDOFFS / 10);
    cr_assert_eq(atomic_load(&sh->side[0].posted[0]), HANDOFFS / 10);
    cr_assert_eq(atomic_load(&sh->lost), 0, "%u wakeups lost", atomic_load(&sh->lost));
    munmap(sh, sizeof(*sh));
}

/* Three processes post to one sleeper as fast as they can, racing for its announcement: the
 * sleeper sees every record, and never waits out a timeout. */
Test(shm_wake, no_lost_wakeup_three_senders, .timeout = 120)
{
    shared_t *sh = shared_new();
    side_t *me = &sh->side[0];
    pid_t pids[FANIN_SENDERS];
    for (int s = 0; s < FANIN_SENDERS; s++) {
        pids[s] = fork();
        cr_assert_geq(pids[s], 0, "fork: %s", strerror(errno));
        if (pids[s] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            /* A pause after most records, so that the sleeper gets to sleep between them
             * and the senders' wakeups race; none after some, so that they also pile up. */
            struct timespec pause = {0, 20000};
            for (int i = 0; i < FANIN_EACH; i++) {
                post(me, s);
                if (i % 8)
                    nanosleep(&pause, NULL);
            }
            _exit(0);
        }
    }
    unsigned seen[FANIN_SENDERS] = {0};
    unsigned total = 0;
    while (total < FANIN_SENDERS * FANIN_EACH) {
        /* Sleep until any sender posted more: announce, look at every counter, wait. */
        shm_wake_announce(&me->word, SHM_WAKE_FUTEX);
        bool news = false;
        for (int s = 0; s < FANIN_SENDERS; s++)
            news |= atomic_load_explicit(&me->posted[s], memory_order_acquire) != seen[s];
        if (!news && shm_wake_wait(&me->word, WAKE_LOST_MS) == ETIMEDOUT)
            atomic_fetch_add(&sh->lost, 1);
        shm_wake_cancel(&me->word);
        total = 0;
        for (int s = 0; s < FANIN_SENDERS; s++)
            total += seen[s] = atomic_load_explicit(&me->posted[s], memory_order_acquire);
        cr_assert_eq(atomic_load(&sh->lost), 0, "a wakeup was lost at %u records", total);
    }
    for (int s = 0; s < FANIN_SENDERS; s++) {
        int st;
        cr_assert_eq(waitpid(pids[s], &st, 0), pids[s]);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sender %d status %d", s, st);
        cr_assert_eq(seen[s], FANIN_EACH);
    }
    munmap(sh, sizeof(*sh));
}
