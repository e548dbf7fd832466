/* shm_coll.h — the shm_coll program's other files, called from its main
 * (tests/progs/shm_coll.c). */
#ifndef RMP_TEST_SHM_COLL_H
#define RMP_TEST_SHM_COLL_H

/* Every collective kind, blocking and nonblocking, on communicators made again over the same
 * ranks: rounds_n rounds each (again.c). SHM_COLL_AGAIN=<kind> runs one kind. */
void made_again_all(int rounds_n, int me, int n);

#endif
