/* pricing: full revaluation of every position in every scenario, in the base currency.
 *   spot: quantity * level;  cash: quantity;  zcb: quantity * exp(-r tau);
 *   fx-forward: quantity * (S exp(-r_f tau) - K exp(-r_d tau));
 *   call/put: quantity * Garman-Kohlhagen(S, K, r_d, r_f, sigma, tau) (Black-Scholes: r_f = 0),
 * where tau = maturity - horizon_days / 252 (time decay over the horizon; an instrument
 * maturing within the horizon is worth its payoff). A value in currency c is converted at
 * the scenario's fx levels (today's for today's value). P&L = value in the scenario - value
 * today, both in base. */
#ifndef MCVAR_PRICING_H
#define MCVAR_PRICING_H

#include "market.h"
#include "positions.h"

#define PRICING_DAYS_PER_YEAR 252.0

typedef struct pricer {
    const book *b;
    const market *m;
    double *today;    /* per position: value today in base (quantity included) */
    double *tau;      /* years to maturity at the horizon */
    double *ln_s_k;   /* log(S0 / K) */
    double *sig_tau;  /* sigma sqrt(tau) */
    double *half_var_tau; /* sigma^2 tau / 2 */
    unsigned char *fast; /* option on a log-return factor with a fixed volatility */
    struct scratch *scratch; /* the vector kernels' arrays for one block (one thread uses a
                              * pricer at a time) */
} pricer;

int pricer_init(pricer *pr, const book *b, const market *m, int horizon_days);
void pricer_free(pricer *pr);
/* Black-Scholes price of one unit (call != 0: call, else put). */
double pricer_black_scholes(int call, double s, double k, double r, double sigma, double tau);
/* Garman-Kohlhagen: r_f the foreign (the pair's base currency) rate. */
double pricer_garman_kohlhagen(int call, double s, double k, double rd, double rf, double sigma,
                               double tau);
/* fx[c * stride + b]: currency c's value in base in column b (c >= 1; row 0 unused). */
void pricer_fx(const pricer *pr, const double *lev, int stride, int count, double *fx);
/* node_pnl[node * stride + b] = the sum of the P&L of the node's own positions, in position
 * order (roll up with book_roll_up for the totals). */
void pricer_node_pnl(const pricer *pr, const double *x, const double *lev, const double *fx,
                     int stride, int count, double *node_pnl);
/* out[b] = position p's P&L in column b (the same numbers the node sums add). */
void pricer_position_pnl(const pricer *pr, int p, const double *x, const double *lev,
                         const double *fx, int stride, int count, double *out);

#endif
