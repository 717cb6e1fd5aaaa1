/* pricing.c: revaluation loops. Each position's loop runs over a block of scenarios with
 * per-position constants hoisted (log(S0/K), sigma sqrt(tau)), so the inner loops are
 * straight-line arithmetic plus exp/erfc; on a log-return factor log(S/K) is log(S0/K) + x,
 * so no log is taken per scenario. Positions in the base currency skip the conversion. */
#include "pricing.h"

#include <math.h>
#include <stdlib.h>

#include "vmath.h"

#define SQRT1_2 0.70710678118654752440 /* M_SQRT1_2 is not in strict C11 */
#define MAX_BLOCK 1024

/* The kernels' arguments and results for one position over a block (pricer.scratch). */
typedef struct scratch {
    double a[2 * MAX_BLOCK], c[MAX_BLOCK], d[MAX_BLOCK];
} scratch;

static double norm_cdf(double d) { return 0.5 * erfc(-d * SQRT1_2); }

double pricer_garman_kohlhagen(int call, double s, double k, double rd, double rf, double sigma,
                               double tau) {
    if (tau <= 0) return call ? fmax(s - k, 0) : fmax(k - s, 0);
    double dd = exp(-rd * tau), df = exp(-rf * tau);
    if (sigma == 0) return call ? fmax(s * df - k * dd, 0) : fmax(k * dd - s * df, 0);
    double st = sigma * sqrt(tau);
    double d1 = (log(s / k) + (rd - rf + 0.5 * sigma * sigma) * tau) / st, d2 = d1 - st;
    return call ? s * df * norm_cdf(d1) - k * dd * norm_cdf(d2)
                : k * dd * norm_cdf(-d2) - s * df * norm_cdf(-d1);
}

double pricer_black_scholes(int call, double s, double k, double r, double sigma, double tau) {
    return pricer_garman_kohlhagen(call, s, k, r, 0.0, sigma, tau);
}

static double rate_at(const book *b, int p, const double *level) {
    double w = b->rate_w[p], r = level[b->rate[p]];
    return w == 0 ? r : r + w * (level[b->rate2[p]] - r);
}

/* One unit's value at the given levels and time to maturity, in the instrument's currency. */
static double unit_value(const book *b, int p, const double *level, double t) {
    double s = b->factor[p] >= 0 ? level[b->factor[p]] : 0;
    switch (b->type[p]) {
    case INSTR_SPOT: return s;
    case INSTR_CASH: return 1.0;
    case INSTR_ZCB: return t <= 0 ? 1.0 : exp(-rate_at(b, p, level) * t);
    case INSTR_FX_FORWARD: {
        if (t <= 0) return s - b->strike[p];
        double rf = level[b->frate[p]], rd = rate_at(b, p, level);
        return s * exp(-rf * t) - b->strike[p] * exp(-rd * t);
    }
    default: {
        double rf = b->frate[p] >= 0 ? level[b->frate[p]] : 0;
        double sig = b->volf[p] >= 0 ? level[b->volf[p]] : b->vol[p];
        return pricer_garman_kohlhagen(b->type[p] == INSTR_CALL, s, b->strike[p],
                                       rate_at(b, p, level), rf, sig, t);
    }
    }
}

static double fx_today(const book *b, const market *m, int c) {
    const currency_path *cp = &b->cur[c];
    double f = 1.0;
    for (int h = 0; h < cp->hops; h++) {
        double l = m->level[cp->factor[h]];
        f *= cp->sign[h] > 0 ? l : 1.0 / l;
    }
    return f;
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
    pr->fast = malloc(n ? n : 1);
    pr->scratch = malloc(sizeof(scratch));
    if (!pr->today || !pr->tau || !pr->ln_s_k || !pr->sig_tau || !pr->half_var_tau || !pr->fast ||
        !pr->scratch)
        return -1;
    double h = horizon_days / PRICING_DAYS_PER_YEAR;
    for (int p = 0; p < b->n; p++) {
        double q = b->quantity[p], t = b->maturity[p], tau = t - h;
        pr->tau[p] = tau;
        pr->ln_s_k[p] = pr->sig_tau[p] = pr->half_var_tau[p] = 0;
        pr->today[p] = q * unit_value(b, p, m->level, t) * fx_today(b, m, b->ccy[p]);
        pr->fast[p] = 0;
        if (b->type[p] == INSTR_CALL || b->type[p] == INSTR_PUT) {
            double s = m->level[b->factor[p]], sig = b->vol[p];
            pr->ln_s_k[p] = log(s / b->strike[p]);
            if (tau > 0 && b->volf[p] < 0 && sig > 0 && b->rate_w[p] == 0 &&
                m->ret[b->factor[p]] == RET_LOG) {
                pr->fast[p] = 1;
                pr->sig_tau[p] = sig * sqrt(tau);
                pr->half_var_tau[p] = 0.5 * sig * sig * tau;
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
    free(pr->fast);
    free(pr->scratch);
}

void pricer_fx(const pricer *pr, const double *lev, int stride, int count, double *fx) {
    const book *bk = pr->b;
    for (int c = 1; c < bk->nccy; c++) {
        const currency_path *cp = &bk->cur[c];
        double *out = fx + (size_t)c * stride;
        for (int b = 0; b < count; b++) out[b] = 1.0;
        for (int h = 0; h < cp->hops; h++) {
            const double *l = lev + (size_t)cp->factor[h] * stride;
            if (cp->sign[h] > 0) for (int b = 0; b < count; b++) out[b] *= l[b];
            else for (int b = 0; b < count; b++) out[b] /= l[b];
        }
    }
}

/* One position over a block. mode EMIT_ADD: out[b] += value - today; EMIT_SET: out[b] =
 * value - today (both for positions in the base currency; they round identically, so
 * position P&Ls add up to the node sums); EMIT_VALUE: out[b] = value in the position's own
 * currency (converted by to_base). Called with a constant mode, so each use is specialised. */
enum { EMIT_ADD, EMIT_SET, EMIT_VALUE };

static inline __attribute__((always_inline)) void values(const pricer *pr, int p, const double *x, const double *lev,
                          int stride, int count, double *out, int mode, scratch *sc) {
    const book *bk = pr->b;
    double q = bk->quantity[p], tau = pr->tau[p], today = pr->today[p];
    instrument type = bk->type[p];
    const double *s = bk->factor[p] >= 0 ? lev + (size_t)bk->factor[p] * stride : NULL;
    const double *r = bk->rate[p] >= 0 ? lev + (size_t)bk->rate[p] * stride : NULL;
#define EMIT(b, v) do { double v_ = (v); if (mode == EMIT_ADD) out[b] += v_ - today; \
                        else if (mode == EMIT_SET) out[b] = v_ - today; else out[b] = v_; } while (0)
    if (type == INSTR_SPOT) {
        _Pragma("GCC ivdep") for (int b = 0; b < count; b++) EMIT(b, q * s[b]);
    } else if (type == INSTR_CASH) {
        for (int b = 0; b < count; b++) EMIT(b, q);
    } else if (type == INSTR_ZCB && bk->rate_w[p] == 0) {
        if (tau <= 0) for (int b = 0; b < count; b++) EMIT(b, q);
        else {
            double *restrict e = sc->a;
            const double *restrict rr = r;
            _Pragma("GCC ivdep") for (int b = 0; b < count; b++) e[b] = -rr[b] * tau;
            vm_exp(e, e, count);
            _Pragma("GCC ivdep") for (int b = 0; b < count; b++) EMIT(b, q * e[b]);
        }
    } else if (pr->fast[p]) {
        const double *xs = x + (size_t)bk->factor[p] * stride;
        const double *rf = bk->frate[p] >= 0 ? lev + (size_t)bk->frate[p] * stride : NULL;
        double k = bk->strike[p], lsk = pr->ln_s_k[p], st = pr->sig_tau[p];
        double hv = pr->half_var_tau[p], inv_st = 1.0 / st;
        double sign = type == INSTR_CALL ? 1.0 : -1.0;
        /* call: S e^{-rf tau} N(d1) - K e^{-r tau} N(d2); put: K e^{-r tau} N(-d2) - S e^{-rf tau} N(-d1) */
        /* the arguments over the block, then the kernels over the arrays: erfc of d1's
         * (a) and d2's (a + count) in one call, exp(-r tau) (c) and exp(-r_f tau) (d) */
        /* the block's rows and the scratch never overlap: ivdep spares the loops GCC's
         * run-time overlap checks (it took their scalar version) */
        double *restrict a1 = sc->a, *restrict a2 = sc->a + count;
        double *restrict c = sc->c, *restrict d = sc->d;
        const double *restrict xr = xs, *restrict rr = r, *restrict fr = rf;
        if (!rf) {
            _Pragma("GCC ivdep") for (int b = 0; b < count; b++) {
                double rt = rr[b] * tau;
                double d1 = (lsk + xr[b] + rt + hv) * inv_st, d2 = d1 - st;
                c[b] = -rt;
                a1[b] = -sign * d1 * SQRT1_2;
                a2[b] = -sign * d2 * SQRT1_2;
            }
            vm_erfc(sc->a, sc->a, 2 * count);
            vm_exp(c, c, count);
            _Pragma("GCC ivdep") for (int b = 0; b < count; b++) {
                double n1 = 0.5 * a1[b], n2 = 0.5 * a2[b];
                EMIT(b, q * sign * (s[b] * n1 - k * c[b] * n2));
            }
        } else {
            _Pragma("GCC ivdep") for (int b = 0; b < count; b++) {
                double rt = rr[b] * tau, ft = fr[b] * tau;
                double d1 = (lsk + xr[b] + rt - ft + hv) * inv_st, d2 = d1 - st;
                c[b] = -rt;
                d[b] = -ft;
                a1[b] = -sign * d1 * SQRT1_2;
                a2[b] = -sign * d2 * SQRT1_2;
            }
            vm_erfc(sc->a, sc->a, 2 * count);
            vm_exp(c, c, count);
            vm_exp(d, d, count);
            _Pragma("GCC ivdep") for (int b = 0; b < count; b++) {
                double n1 = 0.5 * a1[b], n2 = 0.5 * a2[b];
                EMIT(b, q * sign * (s[b] * d[b] * n1 - k * c[b] * n2));
            }
        }
    } else {
        /* general case: a curve, a vol factor, another return type, a zero volatility or
         * an instrument maturing within the horizon */
        for (int b = 0; b < count; b++) {
            double sv = s ? s[b] : 0, t = tau;
            double rv = r ? r[b] : 0;
            if (bk->rate_w[p] != 0) rv += bk->rate_w[p] * (lev[(size_t)bk->rate2[p] * stride + b] - rv);
            if (type == INSTR_ZCB) {
                EMIT(b, q * (t <= 0 ? 1.0 : exp(-rv * t)));
            } else if (type == INSTR_FX_FORWARD) {
                double rf = lev[(size_t)bk->frate[p] * stride + b];
                EMIT(b, q * (t <= 0 ? sv - bk->strike[p] : sv * exp(-rf * t) - bk->strike[p] * exp(-rv * t)));
            } else {
                double rf = bk->frate[p] >= 0 ? lev[(size_t)bk->frate[p] * stride + b] : 0;
                double sig = bk->volf[p] >= 0 ? lev[(size_t)bk->volf[p] * stride + b] : bk->vol[p];
                EMIT(b, q * pricer_garman_kohlhagen(type == INSTR_CALL, sv, bk->strike[p], rv, rf, sig, t));
            }
        }
    }
#undef EMIT
}

/* v (own currency) -> P&L in base at the scenario's conversion f; accumulate: out += pnl,
 * else out = pnl. */
static inline __attribute__((always_inline)) void to_base(const pricer *pr, int p, const double *v, const double *fx,
                           int stride, int count, double *out, int accumulate) {
    double today = pr->today[p];
    const double *f = fx + (size_t)pr->b->ccy[p] * stride;
    if (accumulate) _Pragma("GCC ivdep") for (int b = 0; b < count; b++) out[b] += v[b] * f[b] - today;
    else _Pragma("GCC ivdep") for (int b = 0; b < count; b++) out[b] = v[b] * f[b] - today;
}

/* The loops over the book, built once per instruction set (values and to_base inlined, so
 * GCC vectorises their loops over the block with that set's registers) and chosen as vmath
 * chooses its kernels. Each scenario's arithmetic is the same sequence of IEEE operations
 * on every path (no reassociation, no fused multiply-add: -ffp-contract=off), so the paths
 * give the same bits. */
static inline __attribute__((always_inline)) void node_pnl_body(
    const pricer *pr, const double *x, const double *lev, const double *fx, int stride,
    int count, double *node_pnl) {
    const book *bk = pr->b;
    double v[MAX_BLOCK];
    scratch *sc = pr->scratch;
    for (size_t i = 0; i < (size_t)bk->nnodes * (size_t)stride; i++) node_pnl[i] = 0;
    for (int p = 0; p < bk->n; p++) {
        double *out = node_pnl + (size_t)bk->node[p] * stride;
        if (bk->ccy[p] == 0) {
            values(pr, p, x, lev, stride, count, out, EMIT_ADD, sc);
        } else {
            values(pr, p, x, lev, stride, count, v, EMIT_VALUE, sc);
            to_base(pr, p, v, fx, stride, count, out, 1);
        }
    }
}

static inline __attribute__((always_inline)) void position_pnl_body(
    const pricer *pr, int p, const double *x, const double *lev, const double *fx, int stride,
    int count, double *out) {
    double v[MAX_BLOCK];
    scratch *sc = pr->scratch;
    if (pr->b->ccy[p] == 0) {
        values(pr, p, x, lev, stride, count, out, EMIT_SET, sc);
    } else {
        values(pr, p, x, lev, stride, count, v, EMIT_VALUE, sc);
        to_base(pr, p, v, fx, stride, count, out, 0);
    }
}

#define NODE_PNL_ARGS const pricer *pr, const double *x, const double *lev, const double *fx, \
                      int stride, int count, double *node_pnl
#define POSITION_PNL_ARGS const pricer *pr, int p, const double *x, const double *lev, \
                          const double *fx, int stride, int count, double *out
#define PRICING_PATH(suffix, attr)                                                          \
    static attr void node_pnl_##suffix(NODE_PNL_ARGS) {                                     \
        node_pnl_body(pr, x, lev, fx, stride, count, node_pnl);                             \
    }                                                                                       \
    static attr void position_pnl_##suffix(POSITION_PNL_ARGS) {                             \
        position_pnl_body(pr, p, x, lev, fx, stride, count, out);                           \
    }
PRICING_PATH(baseline, )
#if defined(__x86_64__) || defined(__i386__)
PRICING_PATH(avx2, __attribute__((target("avx2"))))
PRICING_PATH(avx512, __attribute__((target("avx512f,avx512dq"))))
#endif

void pricer_node_pnl(NODE_PNL_ARGS) {
    switch (vm_isa_in_use()) {
#if defined(__x86_64__) || defined(__i386__)
    case VM_ISA_AVX512: node_pnl_avx512(pr, x, lev, fx, stride, count, node_pnl); return;
    case VM_ISA_AVX2: node_pnl_avx2(pr, x, lev, fx, stride, count, node_pnl); return;
#endif
    default: node_pnl_baseline(pr, x, lev, fx, stride, count, node_pnl);
    }
}

void pricer_position_pnl(POSITION_PNL_ARGS) {
    switch (vm_isa_in_use()) {
#if defined(__x86_64__) || defined(__i386__)
    case VM_ISA_AVX512: position_pnl_avx512(pr, p, x, lev, fx, stride, count, out); return;
    case VM_ISA_AVX2: position_pnl_avx2(pr, p, x, lev, fx, stride, count, out); return;
#endif
    default: position_pnl_baseline(pr, p, x, lev, fx, stride, count, out);
    }
}
