/* blob.h — the checks of the modex address blobs peers publish (bytes from another process):
 * pure functions, bytes in and a verdict out, so that tests/fuzz/fuzz_modex runs exactly the
 * checks shm.c and verbs_wire.c run. Part of the transport layer: depends on nothing above. */
#ifndef RMP_TP_BLOB_H
#define RMP_TP_BLOB_H

#include <stddef.h>
#include <stdint.h>

/* A blob made of a fixed part (`fixed` bytes) and a NUL-terminated string filling the rest, at
 * most `max` bytes in all (shm): NULL if it is one, else a reason. */
const char *blob_str_check(const void *data, size_t len, size_t fixed, size_t max);

/* The verbs blob (verbs_blob_t) of a job of `nranks`: what is wrong with it. */
typedef enum {
    BLOB_OK = 0,
    BLOB_MALFORMED, /* too short or wrong magic: another rmp build */
    BLOB_WIRING,    /* the other wiring (RMP_CM) */
    BLOB_FABRIC,    /* the other link layer */
    BLOB_NQPN,      /* ibv wiring: not one QP number per rank of the job */
} blob_verdict_t;
blob_verdict_t blob_verbs_check(const void *data, size_t len, int nranks, uint8_t wiring,
                                uint8_t link_layer);

#endif
