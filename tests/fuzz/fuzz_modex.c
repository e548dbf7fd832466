/* fuzz-sources: runtime/transport/blob.c runtime/transport/shm/shm_bell.c */
/* fuzz_modex.c — libFuzzer target for the address blobs peers publish in the PMIx modex and
 * a rank reads with boot_get: the verbs blob (verbs_peer_blob: blob_verbs_check) and the shm
 * blob (peer_learn: blob_str_check). Input: one selector byte, then the blob. An accepted
 * blob is then read the way the transports read it; ASan catches any byte outside it. */
#include <stdlib.h>
#include <string.h>

#include "transport/blob.h"
#include "transport/shm/shm_bell.h"
#include "transport/verbs/verbs.h"

/* shm.c's blob: its layout (two u64, the doorbell name, the segment name), as the target must
 * build the same bounds (fixed part, maximum). */
#define SHM_FIXED    (2 * sizeof(uint64_t) + SHM_BELL_NAME)
#define SHM_NAME_MAX 144

static void verbs_case(uint8_t sel, const uint8_t *blob, size_t len)
{
    int nranks = 1 + (sel >> 2 & 15);
    uint8_t wiring = sel & 1 ? WIRE_RDMACM : WIRE_IBV;
    uint8_t link = sel & 2 ? IBV_LINK_LAYER_ETHERNET : IBV_LINK_LAYER_INFINIBAND;
    if (blob_verbs_check(blob, len, nranks, wiring, link) != BLOB_OK)
        return;
    verbs_blob_t b;
    memcpy(&b, blob, sizeof(b));
    if (b.magic != VERBS_BLOB_MAGIC || b.wiring != wiring || b.link_layer != link)
        abort();
    if (wiring == WIRE_IBV) {
        /* verbs_wire_wireup reads the entry of its own rank, any rank of the job */
        uint32_t q = 0, x;
        for (int r = 0; r < nranks; r++) {
            memcpy(&x, blob + sizeof(b) + (size_t)r * sizeof(uint32_t), sizeof(x));
            q ^= x;
        }
        (void)q;
    }
}

static void shm_case(const uint8_t *blob, size_t len)
{
    if (blob_str_check(blob, len, SHM_FIXED, SHM_FIXED + SHM_NAME_MAX))
        return;
    char b[SHM_FIXED + SHM_NAME_MAX];
    memset(b, 0, sizeof(b));
    memcpy(b, blob, len);                      /* peer_learn copies it into its shm_blob_t */
    if (strlen(b + SHM_FIXED) >= SHM_NAME_MAX) /* the name, handed to shm_open */
        abort();
    /* peer_learn then checks the doorbell name, read from the peer's bytes */
    if (shm_bell_name_valid(b + 2 * sizeof(uint64_t), SHM_BELL_NAME) &&
        strnlen(b + 2 * sizeof(uint64_t), SHM_BELL_NAME) >= SHM_BELL_NAME)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t sel = data[0];
    size_t len = size - 1;
    uint8_t *blob = malloc(len ? len : 1); /* exactly len bytes: overreads are caught */
    if (!blob)
        return 0;
    memcpy(blob, data + 1, len);
    if (sel & 0x80)
        shm_case(blob, len);
    else
        verbs_case(sel, blob, len);
    free(blob);
    return 0;
}
