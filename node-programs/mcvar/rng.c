/* rng.c: Philox4x32-10 and the variates mcvar draws from it. */
#include "rng.h"

#include <math.h>

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

void rng_philox4x32_10(const uint32_t ctr_in[4], const uint32_t key[2], uint32_t out[4]) {
    uint32_t c0 = ctr_in[0], c1 = ctr_in[1], c2 = ctr_in[2], c3 = ctr_in[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)PHILOX_M0 * c0, p1 = (uint64_t)PHILOX_M1 * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

void rng_stream_init(rng_stream *s, uint64_t seed, uint64_t scenario, uint32_t stream) {
    s->key[0] = (uint32_t)seed;
    s->key[1] = (uint32_t)(seed >> 32);
    s->ctr[0] = 0;              /* draw counter */
    s->ctr[1] = stream;
    s->ctr[2] = (uint32_t)scenario;
    s->ctr[3] = (uint32_t)(scenario >> 32);
    s->used = 2;
    s->has_spare = 0;
}

void rng_keyed_normal_pair(uint64_t seed, uint64_t pair, uint64_t key, double *even, double *odd) {
    uint32_t k[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    uint32_t c[4] = {(uint32_t)pair, (uint32_t)(pair >> 32), (uint32_t)key,
                     (uint32_t)(key >> 32)}, w[4];
    rng_philox4x32_10(c, k, w);
    double u1 = ((double)(((uint64_t)w[0] << 32 | w[1]) >> 11) + 0.5) * 0x1p-53;
    double u2 = ((double)(((uint64_t)w[2] << 32 | w[3]) >> 11) + 0.5) * 0x1p-53;
    double r = sqrt(-2.0 * log(u1)), a = 6.283185307179586476925 * u2;
    *even = r * cos(a);
    *odd = r * sin(a);
}

double rng_keyed_normal(uint64_t seed, uint64_t scenario, uint64_t key) {
    double e, o;
    rng_keyed_normal_pair(seed, scenario >> 1, key, &e, &o);
    return scenario & 1 ? o : e;
}

uint64_t rng_u64(rng_stream *s) {
    if (s->used == 2) {
        rng_philox4x32_10(s->ctr, s->key, s->block);
        s->ctr[0]++;
        s->used = 0;
    }
    const uint32_t *w = s->block + 2 * s->used++;
    return (uint64_t)w[0] << 32 | w[1];
}

double rng_uniform(rng_stream *s) {
    return ((double)(rng_u64(s) >> 11) + 0.5) * 0x1p-53; /* never 0 or 1 */
}

double rng_normal(rng_stream *s) {
    if (s->has_spare) {
        s->has_spare = 0;
        return s->spare;
    }
    double u1 = rng_uniform(s), u2 = rng_uniform(s);
    double r = sqrt(-2.0 * log(u1)), a = 6.283185307179586476925 * u2;
    s->spare = r * sin(a);
    s->has_spare = 1;
    return r * cos(a);
}

double rng_gamma(rng_stream *s, double shape) {
    double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = rng_normal(s), v = 1.0 + c * x;
        if (v <= 0) continue;
        v = v * v * v;
        double u = rng_uniform(s);
        if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
        if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v))) return d * v;
    }
}
