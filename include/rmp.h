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

#include "rmp/errors.h"
#include "rmp/handles.h"
#include "rmp/init.h"
#include "rmp/group.h"
#include "rmp/info.h"
#include "rmp/datatype.h"
#include "rmp/p2p.h"
#include "rmp/coll.h"
#include "rmp/topo.h"
#include "rmp/rma.h"
#include "rmp/comm.h"
#include "rmp/session.h"
#include "rmp/tools.h"
#include "rmp/dynamic.h"
#include "rmp/comm_hw.h" /* split by hardware resource (needs rmp_info_t) */
#include "rmp/io.h" /* parallel I/O (MPI-IO over POSIX files) */

/* RMP_PROFILE's hooks for the layers above (rmp/prof.h). */
#include "rmp/prof.h"
/* Events as they happen, for tools (rmp/event.h). */
#include "rmp/event.h"

#ifdef __cplusplus
}
#endif
#endif /* RMP_H */
