/* risk: VaR, expected shortfall, P&L histogram and Euler contributions from the P&L of all
 * scenarios, in scenario order (the same array whatever the number of ranks).
 *
 * Quantile convention: with the n P&Ls sorted ascending (ties by scenario index) and
 * k = ceil((1 - confidence) n), computed exactly from the confidence as written in decimal
 * (up to 9 places; 0.95 of 1e8 is 5000000, not 5000001 as floating point would have it),
 * VaR = -pnl_(k) and ES = -(pnl_(1) + ... + pnl_(k)) / k. */
#ifndef MCVAR_RISK_H
#define MCVAR_RISK_H

#include "params.h"
#include "pricing.h"
#include "scenarios.h"

typedef struct var_level {
    double confidence, var, es;
    long long k;
} var_level;

typedef struct risk_summary {
    long long n;
    double mean, stddev, min, max;
    var_level level[PARAMS_MAX_CONF];
    int nlevels;
    long long *order; /* scenario indices by ascending P&L */
} risk_summary;

long long risk_tail_count(double confidence, long long n);
int risk_analyse(const double *pnl, long long n, const params *p, risk_summary *out);
void risk_free(risk_summary *r);
/* counts[bins]; bin i covers [min + i w, min + (i+1) w), the last one closed. */
void risk_histogram(const double *pnl, long long n, const risk_summary *r, int bins,
                    long long *counts, double *width);
/* Euler allocation of level l's VaR: the mean P&L of each position over the scenarios
 * ranked k - m .. k + m (m = 0.25% of n), rescaled so the contributions add up to the VaR.
 * Scenarios are regenerated from their indices. contrib has one entry per position. */
int risk_contributions(const risk_summary *r, int l, scenario_gen *g, const pricer *pr,
                       double *contrib);

#endif
