/* rmp.h — the public API of rmp, a small message-passing runtime (an MPI subset).
 * This is the only header a program includes; it gathers rmp/<area>.h, one header per area.
 * Every function returns RMP_SUCCESS (0) or a negative RMP_ERR_* code; rmp_strerror() turns a
 * code into a sentence. */
#ifndef RMP_H
#define RMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RMP_VERSION_MAJOR 0
#define RMP_VERSION_MINOR 1
#define RMP_VERSION_PATCH 0
#define RMP_VERSION_STRING "0.1.0"

#include "rmp/rmp_errors.h"
#include "rmp/rmp_handles.h"
#include "rmp/rmp_init.h"
#include "rmp/rmp_group.h"
#include "rmp/rmp_info.h"
#include "rmp/rmp_datatype.h"
#include "rmp/rmp_p2p.h"
#include "rmp/rmp_coll.h"
#include "rmp/rmp_topo.h"
#include "rmp/rmp_rma.h"
#include "rmp/rmp_comm.h"
#include "rmp/rmp_session.h"
#include "rmp/rmp_tools.h"
#include "rmp/rmp_dynamic.h"
#include "rmp/rmp_comm_hw.h" /* split by hardware resource (needs rmp_info_t) */
#include "rmp/rmp_io.h" /* parallel I/O (MPI-IO over POSIX files) */

/* RMP_PROFILE's hooks for the layers above (rmp/rmp_prof.h). */
#include "rmp/rmp_prof.h"
/* Events as they happen, for tools (rmp/rmp_event.h). */
#include "rmp/rmp_event.h"

#ifdef __cplusplus
}
#endif
#endif /* RMP_H */
