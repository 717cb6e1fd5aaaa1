/* pricing: full revaluation of every position in every scenario.
 *   spot: quantity * level;
 *   zcb:  quantity * exp(-r tau);
 *   call/put: quantity * Black-Scholes(S, K, r, sigma, tau), no dividends;
 * where tau = maturity - horizon_days / 252 (time decay over the horizon; an instrument
 * maturing within the horizon is worth its payoff: face for a zcb, intrinsic value for an
 * option). P&L = value in the scenario - value today (at today's levels and maturity). */
#ifndef MCVAR_PRICING_H
#define MCVAR_PRICING_H

#include "market.h"
#include "positions.h"

#define PRICING_DAYS_PER_YEAR 252.0

typedef struct pricer {
    const book *b;
    const market *m;
    double *today;    /* per position: value today (quantity included) */
    double *tau;      /* years to maturity at the horizon */
    double *ln_s_k;   /* log(S0 / K) */
    double *sig_tau;  /* sigma sqrt(tau) */
    double *half_var_tau; /* sigma^2 tau / 2 */
} pricer;

int pricer_init(pricer *pr, const book *b, const market *m, int horizon_days);
void pricer_free(pricer *pr);
/* Black-Scholes price of one unit (call != 0: call, else put). */
double pricer_black_scholes(int call, double s, double k, double r, double sigma, double tau);
/* pnl[b] = sum over positions, in position order, of each position's P&L in column b. */
void pricer_portfolio_pnl(const pricer *pr, const double *x, const double *lev, int stride,
                          int count, double *pnl);
/* out[b] = position p's P&L in column b (the same numbers the portfolio sum adds). */
void pricer_position_pnl(const pricer *pr, int p, const double *x, const double *lev,
                         int stride, int count, double *out);

#endif
