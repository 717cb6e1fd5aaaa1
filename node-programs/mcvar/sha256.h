/* sha256: SHA-256 as specified in FIPS 180-4 ("Secure Hash Standard"), small and
 * self-contained, so mcvar needs no crypto library on the compute nodes (run_inputs.csv). */
#ifndef MCVAR_SHA256_H
#define MCVAR_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);
void sha256_final(sha256_ctx *c, unsigned char out[32]);
/* Lower-case hex of the digest of a buffer (65 bytes with the NUL). */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
