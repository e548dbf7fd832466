/* strerror.c — rmp_strerror: a sentence for each RMP_ERR_* code. A file of its own because
 * every part of the runtime reports errors with it, and init.c calls most of them. */
#include "rmp.h"

const char *rmp_strerror(int err)
{
    static const char *const msg[] = {
        [0] = "success",
        [1] = "invalid argument",
        [2] = "invalid communicator",
        [3] = "invalid rank",
        [4] = "invalid tag",
        [5] = "invalid count",
        [6] = "invalid datatype",
        [7] = "invalid reduction operation",
        [8] = "invalid buffer",
        [9] = "message truncated: receive buffer too small",
        [10] = "invalid request",
        [11] = "invalid root",
        [12] = "rmp is not initialized (or already finalized, or in a child forked after rmp_init)",
        [13] = "rmp is already initialized",
        [14] = "out of memory",
        [15] = "transport failure",
        [16] = "peer process failed or is unreachable",
        [17] = "error in status",
        [18] = "not allowed at this thread level",
        [19] = "bootstrap (PMIx) failure",
        [20] = "not supported",
        [21] = "internal error",
        [22] = "invalid group",
        [23] = "invalid topology (the communicator has none of the kind needed)",
        [24] = "invalid dimensions",
        [25] = "invalid window",
        [26] = "invalid attribute key",
        [27] = "invalid info object",
        [28] = "invalid info key",
        [29] = "invalid info value",
        [30] = "info key not set",
        [31] = "request pending",
        [32] = "one-sided access outside the target's window",
        [33] = "one-sided call outside an epoch that allows it",
        [34] = "the window's flavor cannot do this",
        [35] = "attached region overlaps another",
        [36] = "the ranks cannot share memory",
        [37] = "invalid file handle",
        [38] = "no such file",
        [39] = "file exists",
        [40] = "permission denied",
        [41] = "no space left on device",
        [42] = "quota exceeded",
        [43] = "file is read-only",
        [44] = "file in use",
        [45] = "invalid access mode",
        [46] = "invalid file name",
        [47] = "data representation already registered",
        [48] = "unsupported data representation",
        [49] = "data conversion failed",
        [50] = "I/O error",
    };
    if (err > 0 || err <= RMP_ERR_LAST)
        return "unknown error code";
    return msg[-err];
}
