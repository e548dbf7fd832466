/* p2p_modes.h — what the files of the p2p_modes program share: the world (me, np, the ring
 * neighbours, the job's nodes), the strided type, the known values each rank sends and their
 * check (p2p_modes.c), and each file's cases, called from main. */
#ifndef RMP_TEST_P2P_MODES_H
#define RMP_TEST_P2P_MODES_H

#include <pthread.h>
#include <sched.h>

#include "progs.h"

extern int me, np, right, left;
extern int nnodes; /* argv[1]: the job's (virtual) nodes, as `mrun --nodes K` */
extern rmp_datatype_t vec; /* vector(2,1,2) of int32: 2 ints of data in 3 */

enum { BIG = 1 << 20 }; /* bytes: past any eager limit */

int32_t val(int from, int iter, int i);
void fill_ints(int32_t *buf, int n, int from, int iter);
int bad_int(const int32_t *buf, int n, int from, int iter);
void stays_pending(rmp_request_t *req, double secs, const char *what);

void t_some(void); /* requests.c */
void t_request_free(void);
void t_mprobe_order(void);
void t_mprobe_threads(void);
void t_replace(void);
void t_split_type(void); /* comm.c */
void t_errors(void);

#endif
