/* bt_stats: the backtesting statistics of var-backtest, each from its source (node-programs/README.md,
 * "var-backtest"):
 *   - the binomial traffic light of "Supervisory framework for the use of backtesting in
 *     conjunction with the internal models approach to market risk capital requirements" (Basel
 *     Committee, 1996; restated in the Basel Framework's MAR99),
 *   - Kupiec's proportion-of-failures likelihood ratio ("Techniques for Verifying the Accuracy of
 *     Risk Measurement Models", 1995),
 *   - Christoffersen's independence and conditional-coverage likelihood ratios ("Evaluating
 *     Interval Forecasts", 1998).
 * Zero counts follow the papers' likelihoods with 0^0 = 1, i.e. a term 0 * ln(q) is 0. */
#ifndef BT_STATS_H
#define BT_STATS_H

enum { BT_GREEN = 0, BT_YELLOW = 1, BT_RED = 2 };

typedef struct bt_result {
    int n, x;               /* observations, exceptions */
    double cum_prob;        /* P(X <= x), X ~ Binomial(n, p) */
    int zone;               /* BT_GREEN, BT_YELLOW, BT_RED */
    int has_plus;           /* the Basel table applies (n = 250, p = 0.01) */
    double plus_factor;
    double lr_pof, p_pof;   /* Kupiec */
    int has_ind;            /* n >= 2: at least one transition */
    int n00, n01, n10, n11; /* transitions (yesterday's state, today's state) */
    double lr_ind, p_ind, lr_cc, p_cc; /* Christoffersen */
} bt_result;

/* Survival functions of chi-square with 1 and 2 degrees of freedom (closed forms). */
double bt_chi2_sf1(double x);
double bt_chi2_sf2(double x);
/* P(X <= x) for X ~ Binomial(n, p). */
double bt_binom_cdf(int x, int n, double p);
/* The zone of x exceptions in n observations at exception probability p. */
int bt_zone(int x, int n, double p, double *cum_prob);
const char *bt_zone_name(int zone);
/* The plus factor of the Basel 1996 table (250 observations at 99%); -1 when it does not apply. */
double bt_plus_factor(int x, int n, double p);
/* All statistics of hits[0..n) (1 = exception) at exception probability p = 1 - confidence. */
void bt_evaluate(const unsigned char *hits, int n, double p, bt_result *r);

#endif
