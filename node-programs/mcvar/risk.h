/* risk: VaR, expected shortfall, their standard errors, the P&L histogram and the Euler
 * contributions of parts (positions, child nodes) from the P&L of all scenarios, in scenario
 * order (the same array whatever the number of ranks). Formulas: README, "Statistics".
 *
 * With the n P&Ls sorted ascending (ties by scenario index) and w = (1 - confidence) n,
 * computed exactly from the confidence as written in decimal (up to 9 places),
 * k = ceil(w), m = floor(w): VaR = -pnl_(k) and
 * ES = -(pnl_(1) + ... + pnl_(m) + (w - m) pnl_(m+1)) / w (Acerbi-Tasche). */
#ifndef MCVAR_RISK_H
#define MCVAR_RISK_H

#include "params.h"

typedef struct var_level {
    double confidence, var, es, var_se, es_se;
    long long k, m;     /* ceil(w), floor(w) */
    double w, frac;     /* w = m + frac */
    long long win_from, win_to; /* VaR contribution window, ranks (1-based, inclusive) */
    double win_mean;    /* the node's mean P&L over the window */
} var_level;

typedef struct risk_summary {
    long long n;
    double mean, stddev, min, max;
    var_level level[PARAMS_MAX_CONF];
    int nlevels;
    long long *order; /* scenario indices by ascending P&L: ranks 1..ntail */
    long long ntail;  /* n (risk_analyse) or risk_tail_ranks (dist_risk) */
    double *tail;     /* dist_risk: the P&Ls at ranks 1..ntail, ascending */
    double *rows;     /* dist_risk: every node's P&L at ranks 1..ntail, ntail x nodes */
    long long *hist;  /* dist_risk: the histogram's counts */
    double hist_width;
} risk_summary;

long long risk_tail_count(double confidence, long long n);
/* w = (1 - confidence) n as m + frac, exactly when the confidence has at most 9 decimals. */
void risk_tail_weight(double confidence, long long n, long long *m, double *frac);
/* with_stderr: Monte Carlo runs (standard errors of VaR and ES). */
int risk_analyse(const double *pnl, long long n, const params *p, int with_stderr,
                 risk_summary *out);
void risk_free(risk_summary *r);
/* The ranks 1..R (ascending P&L) that every level's VaR, ES, contribution window and (with
 * stderr) VaR standard error read: a function of n and the confidences alone. */
long long risk_tail_ranks(long long n, const params *p, int with_stderr);
/* Every level's VaR, ES, window mean and VaR standard error from the P&Ls at ranks
 * 1..risk_tail_ranks (sorted[0..R), ascending); r->n must be set. es_se is left 0. */
void risk_levels(risk_summary *r, const params *p, int with_stderr, const double *sorted);
/* Chen (2008): the loss in excess of VaR, max(-pnl - VaR, 0), and ES's standard error from
 * the sum over all n scenarios of its squared deviations from its mean. */
double risk_es_excess(const var_level *v, double pnl);
double risk_es_stderr(const var_level *v, long long n, double ss);
/* The ranks 1..R whose scenarios every level's contributions need. */
long long risk_ranks_needed(const risk_summary *r);
/* Weight of rank i (1-based) in level l's ES (sum of weights 1), and whether rank i is in its
 * VaR window. */
double risk_es_weight(const var_level *v, long long rank);
/* Turns a part's sums into contributions: var_sum = the part's P&L summed over the window,
 * es_sum = sum of es_weight x the part's P&L. */
double risk_var_contribution(const var_level *v, double var_sum);
double risk_es_contribution(double es_sum);
/* counts[bins]; bin i covers [min + i w, min + (i+1) w), the last one closed. */
void risk_histogram(const double *pnl, long long n, const risk_summary *r, int bins,
                    long long *counts, double *width);

#endif
