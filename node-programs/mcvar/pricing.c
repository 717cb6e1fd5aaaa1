/* pricing.c: revaluation loops. Each position's loop runs over a block of scenarios with
 * per-position constants hoisted (log(S0/K), sigma sqrt(tau)), so the inner loops are
 * straight-line arithmetic plus exp/erfc; log(S/K) is log(S0/K) + x, so no log is taken
 * per scenario. */
#include "pricing.h"

#include <math.h>
#include <stdlib.h>

#define SQRT1_2 0.70710678118654752440 /* M_SQRT1_2 is not in strict C11 */

static double norm_cdf(double d) { return 0.5 * erfc(-d * SQRT1_2); }

double pricer_black_scholes(int call, double s, double k, double r, double sigma, double tau) {
    if (tau <= 0) return call ? fmax(s - k, 0) : fmax(k - s, 0);
    double disc = exp(-r * tau);
    if (sigma == 0) return call ? fmax(s - k * disc, 0) : fmax(k * disc - s, 0);
    double st = sigma * sqrt(tau);
    double d1 = (log(s / k) + (r + 0.5 * sigma * sigma) * tau) / st, d2 = d1 - st;
    return call ? s * norm_cdf(d1) - k * disc * norm_cdf(d2)
                : k * disc * norm_cdf(-d2) - s * norm_cdf(-d1);
}

int pricer_init(pricer *pr, const book *b, const market *m, int horizon_days) {
    size_t n = (size_t)b->n;
    pr->b = b;
    pr->m = m;
    pr->today = malloc(sizeof(double) * n);
    pr->tau = malloc(sizeof(double) * n);
    pr->ln_s_k = malloc(sizeof(double) * n);
    pr->sig_tau = malloc(sizeof(double) * n);
    pr->half_var_tau = malloc(sizeof(double) * n);
    if (!pr->today || !pr->tau || !pr->ln_s_k || !pr->sig_tau || !pr->half_var_tau) return -1;
    double h = horizon_days / PRICING_DAYS_PER_YEAR;
    for (int p = 0; p < b->n; p++) {
        double q = b->quantity[p], t = b->maturity[p], tau = t - h;
        pr->tau[p] = tau;
        pr->ln_s_k[p] = pr->sig_tau[p] = pr->half_var_tau[p] = 0;
        switch (b->type[p]) {
        case INSTR_SPOT: pr->today[p] = q * m->level[b->factor[p]]; break;
        case INSTR_ZCB: pr->today[p] = q * exp(-m->level[b->rate[p]] * t); break;
        case INSTR_CALL:
        case INSTR_PUT: {
            double s = m->level[b->factor[p]], k = b->strike[p], sig = b->vol[p];
            pr->today[p] = q * pricer_black_scholes(b->type[p] == INSTR_CALL, s, k,
                                                    m->level[b->rate[p]], sig, t);
            pr->ln_s_k[p] = log(s / k);
            if (tau > 0) {
                pr->sig_tau[p] = sig * sqrt(tau);
                pr->half_var_tau[p] = 0.5 * sig * sig * tau;
            }
            break;
        }
        }
    }
    return 0;
}

void pricer_free(pricer *pr) {
    free(pr->today);
    free(pr->tau);
    free(pr->ln_s_k);
    free(pr->sig_tau);
    free(pr->half_var_tau);
}

/* One position over a block; accumulate selects pnl += (v - today) or out = v - today.
 * Both forms round identically, so contributions add up to the portfolio P&L. */
static inline void position_block(const pricer *pr, int p, const double *x, const double *lev,
                                  int stride, int count, double *out, int accumulate) {
    const book *bk = pr->b;
    double q = bk->quantity[p], today = pr->today[p], tau = pr->tau[p];
    const double *s = lev + (size_t)bk->factor[p] * stride;
    const double *r = bk->rate[p] >= 0 ? lev + (size_t)bk->rate[p] * stride : NULL;
    instrument type = bk->type[p];
#define EMIT(b, v) do { double pnl_ = (v) - today; if (accumulate) out[b] += pnl_; else out[b] = pnl_; } while (0)
    if (type == INSTR_SPOT) {
        for (int b = 0; b < count; b++) EMIT(b, q * s[b]);
    } else if (type == INSTR_ZCB) {
        if (tau <= 0) for (int b = 0; b < count; b++) EMIT(b, q);
        else for (int b = 0; b < count; b++) EMIT(b, q * exp(-r[b] * tau));
    } else if (tau <= 0 || pr->sig_tau[p] == 0) {
        int call = type == INSTR_CALL;
        for (int b = 0; b < count; b++)
            EMIT(b, q * pricer_black_scholes(call, s[b], bk->strike[p], r[b], bk->vol[p], tau));
    } else {
        const double *xs = x + (size_t)bk->factor[p] * stride;
        double k = bk->strike[p], lsk = pr->ln_s_k[p], st = pr->sig_tau[p];
        double hv = pr->half_var_tau[p], inv_st = 1.0 / st;
        double sign = type == INSTR_CALL ? 1.0 : -1.0;
        /* call: S N(d1) - K e^{-r tau} N(d2); put: K e^{-r tau} N(-d2) - S N(-d1) */
        for (int b = 0; b < count; b++) {
            double rt = r[b] * tau;
            double d1 = (lsk + xs[b] + rt + hv) * inv_st, d2 = d1 - st;
            double disc = exp(-rt);
            double n1 = 0.5 * erfc(-sign * d1 * SQRT1_2);
            double n2 = 0.5 * erfc(-sign * d2 * SQRT1_2);
            EMIT(b, q * sign * (s[b] * n1 - k * disc * n2));
        }
    }
#undef EMIT
}

void pricer_portfolio_pnl(const pricer *pr, const double *x, const double *lev, int stride,
                          int count, double *pnl) {
    for (int b = 0; b < count; b++) pnl[b] = 0;
    for (int p = 0; p < pr->b->n; p++) position_block(pr, p, x, lev, stride, count, pnl, 1);
}

void pricer_position_pnl(const pricer *pr, int p, const double *x, const double *lev,
                         int stride, int count, double *out) {
    position_block(pr, p, x, lev, stride, count, out, 0);
}
