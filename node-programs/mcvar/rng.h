/* rng: Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"), a
 * counter-based generator. A stream is keyed by the seed and addressed by (scenario index,
 * stream number, draw counter), so a scenario's numbers do not depend on which rank draws
 * them or in what order: results are identical for any number of ranks. */
#ifndef MCVAR_RNG_H
#define MCVAR_RNG_H

#include <stdint.h>

void rng_philox4x32_10(const uint32_t ctr_in[4], const uint32_t key[2], uint32_t out[4]);

typedef struct rng_stream {
    uint32_t key[2], ctr[4], block[4];
    int used;                 /* 64-bit words taken from block (0..2) */
    int has_spare;
    double spare;             /* second Box-Muller normal */
} rng_stream;

enum { RNG_STREAM_NORMALS = 0, RNG_STREAM_GAMMA = 1 };

/* The standard normals of factor stream `key` (the factor id's hash) in scenarios 2j and
 * 2j + 1: one Philox block at counter (j low, j high, key low, key high), two uniforms,
 * Box-Muller's cosine (even scenario) and sine (odd) branches. They depend on nothing else,
 * so a factor's normals never change with its row or with the other factors. */
void rng_keyed_normal_pair(uint64_t seed, uint64_t pair, uint64_t key, double *even, double *odd);
double rng_keyed_normal(uint64_t seed, uint64_t scenario, uint64_t key);
void rng_stream_init(rng_stream *s, uint64_t seed, uint64_t scenario, uint32_t stream);
uint64_t rng_u64(rng_stream *s);
double rng_uniform(rng_stream *s);    /* in (0, 1) */
double rng_normal(rng_stream *s);     /* Box-Muller */
double rng_gamma(rng_stream *s, double shape); /* Marsaglia-Tsang, shape >= 1, scale 1 */

#endif
