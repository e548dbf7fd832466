/* shm_rma.h — shm's one-sided table (shm_rma.c), which shm's open installs.
 * RMA segments are made, locked and named exactly like shm's own (shm_seg.c: mrun's sweep
 * knows them, no other user can open or predict them). */
#ifndef RMP_SHM_RMA_H
#define RMP_SHM_RMA_H

#include <stdbool.h>

#include "transport/transport.h"

extern const tp_rma_ops_t shm_rma_ops;

#endif
