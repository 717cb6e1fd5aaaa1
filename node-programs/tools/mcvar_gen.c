/* mcvar-gen: synthetic mcvar inputs of any size, deterministic by seed.
 *
 * Factors follow a one-factor market model: daily log return of factor f is
 * sigma_f (beta_f m_t + sqrt(1 - beta_f^2) e_ft) with m, e standard normal, so the true
 * covariance (written with --covariance) is sigma_i sigma_j beta_i beta_j off the diagonal
 * and sigma_i^2 on it. Current levels are the last history date's levels. History rows are
 * grouped by factor by default (mcvar must pivot them by date). Everything is in USD (the
 * base currency); one non-rate factor in three is a "commodity" (priced like an equity);
 * every factor, rates included, moves by a log return (return_type log), as the
 * history is generated. Positions sit on four desks under two legal entities:
 * BANK/LE-<d % 2>/DESK-<d>, d = position number % 4. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio.h"

typedef struct gen_options {
    const char *out_dir, *method, *confidence;
    int factors, days, positions, scenarios, horizon, by_date, covariance, compress;
    double option_share, dof;
    uint64_t seed;
    size_t block_size;
} gen_options;

static uint64_t rng_state;
static uint64_t splitmix(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform(void) { return ((double)(splitmix() >> 11) + 0.5) * 0x1p-53; }
static double uniform_in(double a, double b) { return a + (b - a) * uniform(); }
static double normal(void) {
    return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

/* Civil date from days since 1970-01-01 (H. Hinnant's algorithm). */
static void civil(long z, char out[11]) {
    z += 719468;
    long era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long y = (long)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    unsigned d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
    snprintf(out, 11, "%04ld-%02u-%02u", y + (m <= 2), m, d);
}

typedef struct out_file {
    gio_writer *w;
    char tmp[4096], final[4096];
} out_file;

static int open_out(out_file *f, const gen_options *o, const char *name) {
    char err[GIO_ERRLEN];
    snprintf(f->final, sizeof f->final, "%s/%s%s", o->out_dir, name, o->compress ? ".gz" : "");
    snprintf(f->tmp, sizeof f->tmp, "%s.tmp", f->final);
    if (gio_writer_open(&f->w, f->tmp, o->compress, o->block_size, err)) {
        fprintf(stderr, "mcvar-gen: %s\n", err);
        return -1;
    }
    return 0;
}

static int close_out(out_file *f) {
    char err[GIO_ERRLEN];
    if (gio_writer_close(f->w, err) || rename(f->tmp, f->final)) {
        fprintf(stderr, "mcvar-gen: %s: %s\n", f->final, err);
        return -1;
    }
    return 0;
}

#define PRINTF(f, ...) do { if (gio_writer_printf((f)->w, NULL, __VA_ARGS__)) return -1; } while (0)

static int nrates(const gen_options *o) { return o->factors / 5 > 0 ? o->factors / 5 : 1; }
static const char *kind_of(const gen_options *o, int f) {
    return f < nrates(o) ? "rate" : f % 3 == 0 ? "commodity" : "equity";
}

static int write_history(const gen_options *o, const double *sigma, const double *beta,
                         double *level /* days x factors, filled */) {
    int F = o->factors, D = o->days;
    for (int f = 0; f < F; f++)
        level[f] = f < nrates(o) ? uniform_in(0.005, 0.05)
                 : kind_of(o, f)[0] == 'c' ? uniform_in(0.5, 2) : uniform_in(20, 500);
    for (int d = 1; d < D; d++) {
        double m = normal();
        for (int f = 0; f < F; f++) {
            double ret = sigma[f] * (beta[f] * m + sqrt(1 - beta[f] * beta[f]) * normal());
            level[(size_t)d * F + f] = level[(size_t)(d - 1) * F + f] * exp(ret);
        }
    }
    out_file h;
    if (open_out(&h, o, "history.csv")) return -1;
    PRINTF(&h, "as_of,factor_id,level\n");
    char date[11];
    for (long i = 0; i < (long)D * F; i++) {
        int d = o->by_date ? (int)(i / F) : (int)(i % D), f = o->by_date ? (int)(i % F) : (int)(i / D);
        civil(16436 + d, date); /* from 2015-01-01 */
        PRINTF(&h, "%s,F%05d,%.10g\n", date, f, level[(size_t)d * F + f]);
    }
    return close_out(&h);
}

static int write_factors(const gen_options *o, const double *last) {
    out_file f;
    if (open_out(&f, o, "factors.csv")) return -1;
    PRINTF(&f, "factor_id,kind,level,currency,quote,return_type\n");
    for (int i = 0; i < o->factors; i++) {
        PRINTF(&f, "F%05d,%s,%.10g,USD,,log\n", i, kind_of(o, i), last[i]);
    }
    return close_out(&f);
}

static int write_covariance(const gen_options *o, const double *sigma, const double *beta) {
    out_file c;
    if (open_out(&c, o, "covariance.csv")) return -1;
    PRINTF(&c, "factor_i,factor_j,covariance\n");
    for (int i = 0; i < o->factors; i++)
        for (int j = 0; j < o->factors; j++)
            PRINTF(&c, "F%05d,F%05d,%.17g\n", i, j, /* same product order both halves */
                   i == j ? sigma[i] * sigma[i]
                          : sigma[i < j ? i : j] * sigma[i < j ? j : i] * beta[i < j ? i : j] *
                                beta[i < j ? j : i]);
    return close_out(&c);
}

static int write_positions(const gen_options *o, const double *last) {
    out_file p;
    int R = nrates(o), F = o->factors;
    if (open_out(&p, o, "positions.csv")) return -1;
    PRINTF(&p, "position_id,node,instrument,factor_id,rate_factor_id,quantity,strike,maturity_years,volatility\n");
    for (int i = 0; i < o->positions; i++) {
        int rate = (int)(splitmix() % (uint64_t)R);
        int und = F > R ? R + (int)(splitmix() % (uint64_t)(F - R)) : 0;
        double q = (double)((int64_t)(splitmix() % 2001) - 1000), u = uniform();
        if (q == 0) q = 1;
        if (u < o->option_share) {
            PRINTF(&p, "P%07d,BANK/LE-%d/DESK-%d,%s,F%05d,F%05d,%.0f,%.6f,%.4f,%.4f\n", i, i % 4 % 2, i % 4, splitmix() % 2 ? "call" : "put",
                   und, rate, q, last[und] * uniform_in(0.8, 1.2), uniform_in(0.1, 3), uniform_in(0.1, 0.5));
        } else if (u < o->option_share + (1 - o->option_share) * 0.25) {
            PRINTF(&p, "P%07d,BANK/LE-%d/DESK-%d,zcb,,F%05d,%.0f,,%.4f,\n", i, i % 4 % 2, i % 4, rate, q * 100, uniform_in(0.1, 30));
        } else {
            PRINTF(&p, "P%07d,BANK/LE-%d/DESK-%d,spot,F%05d,,%.0f,,,\n", i, i % 4 % 2, i % 4, und, q);
        }
    }
    return close_out(&p);
}

static int write_params(const gen_options *o) {
    out_file p;
    char last[11];
    civil(16436 + o->days - 1, last);
    if (open_out(&p, o, "params.csv")) return -1;
    PRINTF(&p, "name,value\nbase_currency,USD\nbusiness_date,%s\nscenarios,%d\nhorizon_days,%d\nconfidence_levels,%s\nmethod,%s\n"
               "dof,%g\nseed,%llu\nhistogram_bins,50\n", last, o->scenarios, o->horizon,
           o->confidence, o->method, o->dof, (unsigned long long)o->seed);
    return close_out(&p);
}

static void usage(FILE *f) {
    fputs("usage: mcvar-gen --out-dir DIR [--factors N (20)] [--days D (500)]\n"
          "  [--positions P (1000)] [--option-share S (0.2)] [--seed S (1)] [--compress]\n"
          "  [--block-size BYTES] [--history-by-date] [--covariance] [--scenarios N (10000)]\n"
          "  [--method mc-normal|mc-student-t|historical] [--horizon-days H (1)]\n"
          "  [--dof V (5)] [--confidence '0.95;0.99']\n"
          "Writes factors.csv, history.csv, positions.csv, params.csv (and covariance.csv)\n"
          "under DIR, plain or blocked gzip (.gz). One fifth of the factors are rates.\n", f);
}

int main(int argc, char **argv) {
    gen_options o = {NULL, "mc-normal", "0.95;0.99", 20, 500, 1000, 10000, 1, 0, 0, 0, 0.2, 5, 1,
                     GIO_BGZF_DEFAULT_BLOCK};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--compress")) o.compress = 1;
        else if (!strcmp(a, "--history-by-date")) o.by_date = 1;
        else if (!strcmp(a, "--covariance")) o.covariance = 1;
        else if (!strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--out-dir")) { o.out_dir = v; i++; }
        else if (!strcmp(a, "--factors")) { o.factors = atoi(v); i++; }
        else if (!strcmp(a, "--days")) { o.days = atoi(v); i++; }
        else if (!strcmp(a, "--positions")) { o.positions = atoi(v); i++; }
        else if (!strcmp(a, "--option-share")) { o.option_share = atof(v); i++; }
        else if (!strcmp(a, "--seed")) { o.seed = strtoull(v, NULL, 10); i++; }
        else if (!strcmp(a, "--block-size")) { o.block_size = strtoull(v, NULL, 10); i++; }
        else if (!strcmp(a, "--scenarios")) { o.scenarios = atoi(v); i++; }
        else if (!strcmp(a, "--method")) { o.method = v; i++; }
        else if (!strcmp(a, "--horizon-days")) { o.horizon = atoi(v); i++; }
        else if (!strcmp(a, "--dof")) { o.dof = atof(v); i++; }
        else if (!strcmp(a, "--confidence")) { o.confidence = v; i++; }
        else { usage(stderr); return 2; }
    }
    if (!o.out_dir || o.factors < 2 || o.days < 3 || o.positions < 1) { usage(stderr); return 2; }
    rng_state = o.seed;
    int F = o.factors;
    double *sigma = malloc(sizeof(double) * F), *beta = malloc(sizeof(double) * F);
    double *level = malloc(sizeof(double) * (size_t)o.days * F);
    if (!sigma || !beta || !level) return 1;
    for (int f = 0; f < F; f++) {
        sigma[f] = f < nrates(&o) ? uniform_in(0.005, 0.02) : uniform_in(0.005, 0.025);
        beta[f] = uniform_in(0.2, 0.8);
    }
    int rc = write_history(&o, sigma, beta, level);
    const double *last = level + (size_t)(o.days - 1) * F;
    if (!rc) rc = write_factors(&o, last);
    if (!rc && o.covariance) rc = write_covariance(&o, sigma, beta);
    if (!rc) rc = write_positions(&o, last);
    if (!rc) rc = write_params(&o);
    free(sigma); free(beta); free(level);
    return rc ? 1 : 0;
}
