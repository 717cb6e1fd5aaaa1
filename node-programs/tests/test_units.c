/* Unit tests without MPI: the counter-based generator, Black-Scholes revaluation under a
 * zero shock, and the quantile convention. Each check prints what failed; the exit code
 * is the number of failures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing.h"
#include "risk.h"
#include "sha256.h"
#include "rng.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* Known-answer values from the Random123 distribution (kat_vectors, philox4x32_10). */
static void philox_matches_random123_known_answers(void) {
    uint32_t out[4];
    const uint32_t c0[4] = {0, 0, 0, 0}, k0[2] = {0, 0};
    rng_philox4x32_10(c0, k0, out);
    CHECK(out[0] == 0x6627e8d5 && out[1] == 0xe169c58d && out[2] == 0xbc57ac4c &&
          out[3] == 0x9b00dbd8, "zero vector: %08x %08x %08x %08x", out[0], out[1], out[2], out[3]);
    const uint32_t c1[4] = {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff};
    const uint32_t k1[2] = {0xffffffff, 0xffffffff};
    rng_philox4x32_10(c1, k1, out);
    CHECK(out[0] == 0x408f276d && out[1] == 0x41c83b0e && out[2] == 0xa20bc7c6 &&
          out[3] == 0x6d5451fd, "ones vector: %08x %08x %08x %08x", out[0], out[1], out[2], out[3]);
    const uint32_t c2[4] = {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344};
    const uint32_t k2[2] = {0xa4093822, 0x299f31d0};
    rng_philox4x32_10(c2, k2, out);
    CHECK(out[0] == 0xd16cfe09 && out[1] == 0x94fdcceb && out[2] == 0x5001e420 &&
          out[3] == 0x24126ea1, "pi vector: %08x %08x %08x %08x", out[0], out[1], out[2], out[3]);
}

static void normals_have_unit_moments_and_depend_only_on_the_scenario(void) {
    double s1 = 0, s2 = 0;
    int n = 200000;
    for (int i = 0; i < n; i++) {
        rng_stream s;
        rng_stream_init(&s, 42, (uint64_t)i, RNG_STREAM_NORMALS);
        double z = rng_normal(&s);
        s1 += z;
        s2 += z * z;
    }
    CHECK(fabs(s1 / n) < 5 / sqrt(n), "mean %g", s1 / n);
    CHECK(fabs(s2 / n - 1) < 5 * sqrt(2.0 / n), "variance %g", s2 / n);
    rng_stream a, b;
    rng_stream_init(&a, 7, 123456789012ull, RNG_STREAM_NORMALS);
    for (int i = 0; i < 5; i++) rng_normal(&a);
    rng_stream_init(&b, 7, 123456789012ull, RNG_STREAM_NORMALS);
    for (int i = 0; i < 5; i++) rng_normal(&b);
    CHECK(rng_normal(&a) == rng_normal(&b), "same (seed, scenario) gives the same draws");
}

static void gamma_draws_have_the_right_mean_and_variance(void) {
    double shape = 2.5, s1 = 0, s2 = 0;
    int n = 100000;
    for (int i = 0; i < n; i++) {
        rng_stream s;
        rng_stream_init(&s, 3, (uint64_t)i, RNG_STREAM_GAMMA);
        double g = rng_gamma(&s, shape);
        s1 += g;
        s2 += g * g;
    }
    double mean = s1 / n, var = s2 / n - mean * mean;
    CHECK(fabs(mean - shape) < 5 * sqrt(shape / n), "gamma mean %g", mean);
    CHECK(fabs(var - shape) < 0.05 * shape, "gamma variance %g", var);
}

/* The reference is written independently of pricing.c: N via erf, d1 from log(S/K). */
static double reference_bs(int call, double s, double k, double r, double v, double t) {
    double d1 = (log(s / k) + (r + v * v / 2) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
    double n1 = 0.5 * (1 + erf(d1 / sqrt(2.0))), n2 = 0.5 * (1 + erf(d2 / sqrt(2.0)));
    return call ? s * n1 - k * exp(-r * t) * n2 : k * exp(-r * t) * (1 - n2) - s * (1 - n1);
}

static void option_revalued_under_zero_shock_equals_black_scholes(void) {
    const double S[] = {100, 80, 125, 1.3}, K[] = {100, 100, 100, 1.25};
    const double T[] = {1, 0.5, 2, 0.25}, V[] = {0.2, 0.35, 0.15, 0.1}, R[] = {0.03, 0.01, 0.05, 0.02};
    for (int c = 0; c < 4; c++)
        for (int call = 0; call < 2; call++) {
            /* A book of one option, market of underlying + rate, horizon 0: no decay. */
            char *ids[1] = {"opt"};
            instrument type = call ? INSTR_CALL : INSTR_PUT;
            int factor = 0, rate = 1, none = -1, zero = 0;
            double q = 3, k = K[c], t = T[c], v = V[c], w = 0;
            currency_path base = {"USD", 0, {0, 0}, {0, 0}};
            book bk = {.n = 1, .cap = 1, .id = ids, .type = &type, .node = &zero, .ccy = &zero,
                       .factor = &factor, .rate = &rate, .rate2 = &rate, .rate_w = &w,
                       .frate = &none, .volf = &none, .quantity = &q, .strike = &k,
                       .maturity = &t, .vol = &v, .nccy = 1, .cur = &base};
            int is_rate[2] = {0, 1};
            return_type ret[2] = {RET_LOG, RET_ABSOLUTE};
            double level[2] = {S[c], R[c]};
            market m;
            memset(&m, 0, sizeof m);
            m.n = 2;
            m.is_rate = is_rate;
            m.ret = ret;
            m.level = level;
            pricer pr;
            CHECK(pricer_init(&pr, &bk, &m, 0) == 0, "pricer_init");
            double x[2] = {0, 0}, lev[2] = {S[c], R[c]}, pnl;
            pricer_position_pnl(&pr, 0, x, lev, NULL, 1, 1, &pnl);
            double value = pr.today[0] + pnl, ref = q * reference_bs(call, S[c], k, R[c], v, t);
            CHECK(fabs(value - ref) <= 1e-10 * fabs(ref), "case %d %s: %.17g vs %.17g", c,
                  call ? "call" : "put", value, ref);
            CHECK(fabs(pnl) <= 1e-10 * fabs(ref), "zero shock P&L %.3g", pnl);
            pricer_free(&pr);
        }
}

static void put_call_parity_holds_after_the_horizon_decay(void) {
    double s = 105, k = 100, r = 0.04, v = 0.25, t = 0.75 - 10 / 252.0;
    double c = pricer_black_scholes(1, s, k, r, v, t), p = pricer_black_scholes(0, s, k, r, v, t);
    CHECK(fabs(c - p - (s - k * exp(-r * t))) < 1e-10 * s, "parity %.17g", c - p);
}

/* Garman-Kohlhagen against its closed form written here: S e^{-rf t} N(d1) - K e^{-rd t} N(d2),
 * and its own parity C - P = S e^{-rf t} - K e^{-rd t}. */
static void garman_kohlhagen_matches_closed_form_and_parity(void) {
    double s = 151.2, k = 150, rd = 0.001, rf = 0.05, v = 0.1, t = 0.5;
    double d1 = (log(s / k) + (rd - rf + v * v / 2) * t) / (v * sqrt(t)), d2 = d1 - v * sqrt(t);
    double ref = s * exp(-rf * t) * 0.5 * (1 + erf(d1 / sqrt(2.0))) -
                 k * exp(-rd * t) * 0.5 * (1 + erf(d2 / sqrt(2.0)));
    double c = pricer_garman_kohlhagen(1, s, k, rd, rf, v, t), p = pricer_garman_kohlhagen(0, s, k, rd, rf, v, t);
    CHECK(fabs(c - ref) < 1e-10 * ref, "GK call %.17g vs %.17g", c, ref);
    CHECK(fabs(c - p - (s * exp(-rf * t) - k * exp(-rd * t))) < 1e-10 * s, "GK parity");
}

/* ES with fractional weighting of the boundary scenario (Acerbi-Tasche): w = 0.025 x 250 = 6.25,
 * so 6 worst at weight 1 and the 7th at 0.25, over 6.25. */
static void expected_shortfall_weights_the_boundary_scenario(void) {
    long long m;
    double frac;
    risk_tail_weight(0.975, 250, &m, &frac);
    CHECK(m == 6 && fabs(frac - 0.25) < 1e-15, "w = %lld + %g", m, frac);
    double pnl[250];
    for (int i = 0; i < 250; i++) pnl[i] = i - 100.0; /* worst -100, -99, ... */
    params p;
    params_default(&p);
    p.nconfidence = 1;
    p.confidence[0] = 0.975;
    risk_summary rs;
    CHECK(risk_analyse(pnl, 250, &p, 0, &rs) == 0, "risk_analyse");
    double want = (100 + 99 + 98 + 97 + 96 + 95 + 0.25 * 94) / 6.25;
    CHECK(fabs(rs.level[0].es - want) < 1e-12, "ES %.17g vs %.17g", rs.level[0].es, want);
    CHECK(rs.level[0].var == 94, "VaR %g (k = 7)", rs.level[0].var);
    risk_free(&rs);
}

static void dates_are_calendar_valid(void) {
    CHECK(!market_valid_date("2026-02-30"), "2026-02-30 accepted");
    CHECK(!market_valid_date("2025-02-29"), "2025-02-29 accepted");
    CHECK(market_valid_date("2024-02-29"), "2024-02-29 refused");
    CHECK(!market_valid_date("2026-13-01") && !market_valid_date("2026-1-01"), "bad month");
    CHECK(market_valid_date("2026-12-31"), "2026-12-31 refused");
}

/* A factor's keyed normals: unit moments, the pair form equal to the one-at-a-time form, and
 * two keys uncorrelated. */
static void keyed_normals_have_unit_moments_and_one_value_per_scenario(void) {
    const int n = 200000;
    double s1 = 0, s2 = 0, cross = 0;
    for (int i = 0; i < n; i += 2) {
        double e, o;
        rng_keyed_normal_pair(9, (uint64_t)i >> 1, 0x1234, &e, &o);
        CHECK(e == rng_keyed_normal(9, (uint64_t)i, 0x1234) &&
              o == rng_keyed_normal(9, (uint64_t)i + 1, 0x1234), "pair differs at %d", i);
        s1 += e + o;
        s2 += e * e + o * o;
        cross += e * rng_keyed_normal(9, (uint64_t)i, 0x9999) + o * rng_keyed_normal(9, (uint64_t)i + 1, 0x9999);
    }
    CHECK(fabs(s1 / n) < 5 / sqrt(n), "keyed mean %g", s1 / n);
    CHECK(fabs(s2 / n - 1) < 0.02, "keyed variance %g", s2 / n);
    CHECK(fabs(cross / n) < 5 / sqrt(n), "two keys correlate: %g", cross / n);
}

/* FIPS 180-4's examples (and the empty message). */
static void sha256_matches_the_standard_examples(void) {
    static const struct { const char *msg, *hex; } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char hex[65];
        sha256_hex(v[i].msg, strlen(v[i].msg), hex);
        CHECK(strcmp(hex, v[i].hex) == 0, "sha256('%s') = %s", v[i].msg, hex);
    }
    /* a million 'a', fed in uneven pieces */
    sha256_ctx c;
    unsigned char d[32], a[1000];
    char hex[65];
    memset(a, 'a', sizeof a);
    sha256_init(&c);
    for (int i = 0, n = 0; n < 1000000; i++) {
        int take = 1 + i % 997;
        if (take > 1000000 - n) take = 1000000 - n;
        sha256_update(&c, a, (size_t)take);
        n += take;
    }
    sha256_final(&c, d);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
    CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0,
          "sha256(a x 1e6) = %s", hex);
}

static void tail_count_uses_the_decimal_confidence(void) {
    CHECK(risk_tail_count(0.99, 100000) == 1000, "0.99 of 1e5 -> %lld", risk_tail_count(0.99, 100000));
    CHECK(risk_tail_count(0.95, 100000) == 5000, "0.95 of 1e5");
    CHECK(risk_tail_count(0.95, 30) == 2, "ceil(1.5) = 2");
    CHECK(risk_tail_count(0.999, 10) == 1, "at least one scenario");
}

/* Where an absolute slack bites: (1 - 0.95) * 1e8 is 5000000.0000000047 in doubles. */
static void tail_count_is_exact_at_a_hundred_million_scenarios_and_more(void) {
    static const struct { double c; long long n, k; } cases[] = {
        {0.95, 100000000, 5000000},    {0.975, 100000000, 2500000},
        {0.7, 100000000, 30000000},    {0.99, 1000000000, 10000000},
        {0.995, 1000000000, 5000000},  {0.9999, 1000000000, 100000},
        {0.95, 999999999, 50000000},   {0.99, 123456789, 1234568},
        {0.123456789, 1000000000, 876543211}, {0.5, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long long k = risk_tail_count(cases[i].c, cases[i].n);
        CHECK(k == cases[i].k, "%.10g of %lld -> %lld, want %lld", cases[i].c, cases[i].n, k,
              cases[i].k);
    }
}

int main(void) {
    philox_matches_random123_known_answers();
    normals_have_unit_moments_and_depend_only_on_the_scenario();
    gamma_draws_have_the_right_mean_and_variance();
    option_revalued_under_zero_shock_equals_black_scholes();
    put_call_parity_holds_after_the_horizon_decay();
    tail_count_uses_the_decimal_confidence();
    garman_kohlhagen_matches_closed_form_and_parity();
    sha256_matches_the_standard_examples();
    keyed_normals_have_unit_moments_and_one_value_per_scenario();
    expected_shortfall_weights_the_boundary_scenario();
    dates_are_calendar_valid();
    tail_count_is_exact_at_a_hundred_million_scenarios_and_more();
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    else printf("all unit checks passed\n");
    return failures != 0;
}
