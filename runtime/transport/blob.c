/* blob.c — the modex blob checks (see blob.h). Each field is read once, by copy: nothing here
 * touches transport state, which is what lets tests/fuzz run it alone. */
#include "transport/blob.h"

#include <string.h>

#include "transport/verbs/verbs.h"

const char *blob_str_check(const void *data, size_t len, size_t fixed, size_t max)
{
    if (len <= fixed)
        return "too short";
    if (len > max)
        return "too long";
    if (((const char *)data)[len - 1] != '\0')
        return "name not terminated";
    return NULL;
}

blob_verdict_t blob_verbs_check(const void *data, size_t len, int nranks, uint8_t wiring,
                                uint8_t link_layer)
{
    verbs_blob_t b;
    if (len < sizeof(b))
        return BLOB_MALFORMED;
    memcpy(&b, data, sizeof(b));
    if (b.magic != VERBS_BLOB_MAGIC)
        return BLOB_MALFORMED;
    if (b.wiring != wiring)
        return BLOB_WIRING;
    if (b.link_layer != link_layer)
        return BLOB_FABRIC;
    /* nqpn is at most 2^32 - 1: the product cannot overflow a 64-bit size_t. */
    if (wiring == WIRE_IBV &&
        (b.nqpn != (uint32_t)nranks || (len - sizeof(b)) / sizeof(uint32_t) < (size_t)b.nqpn))
        return BLOB_NQPN;
    return BLOB_OK;
}
