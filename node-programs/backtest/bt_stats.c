/* bt_stats.c: the traffic light, Kupiec's and Christoffersen's tests (sources in bt_stats.h). */
#include "bt_stats.h"

#include <math.h>

/* chi2(1): P(Z^2 > x) = 2 P(Z > sqrt(x)) = erfc(sqrt(x / 2)); chi2(2) is exponential with mean 2. */
double bt_chi2_sf1(double x) { return x <= 0 ? 1.0 : erfc(sqrt(x / 2)); }
double bt_chi2_sf2(double x) { return x <= 0 ? 1.0 : exp(-x / 2); }

double bt_binom_cdf(int x, int n, double p) {
    if (x >= n) return 1.0;
    double s = 0, lp = log(p), lq = log1p(-p), ln = lgamma(n + 1.0);
    for (int k = 0; k <= x; k++)
        s += exp(ln - lgamma(k + 1.0) - lgamma(n - k + 1.0) + k * lp + (n - k) * lq);
    return s < 1.0 ? s : 1.0;
}

/* Basel 1996, section on the zones: the yellow zone begins where the probability of that number
 * of exceptions or fewer reaches 95%, the red zone where it reaches 99.99%. */
int bt_zone(int x, int n, double p, double *cum_prob) {
    double c = bt_binom_cdf(x, n, p);
    if (cum_prob) *cum_prob = c;
    return c >= 0.9999 ? BT_RED : c >= 0.95 ? BT_YELLOW : BT_GREEN;
}

const char *bt_zone_name(int zone) {
    return zone == BT_RED ? "red" : zone == BT_YELLOW ? "yellow" : "green";
}

double bt_plus_factor(int x, int n, double p) {
    /* Basel 1996, table 2: plus factors for 5..9 exceptions (yellow), 1.00 from 10 (red). */
    static const double yellow[5] = {0.40, 0.50, 0.65, 0.75, 0.85};
    if (n != 250 || fabs(p - 0.01) > 1e-12) return -1;
    return x <= 4 ? 0.0 : x <= 9 ? yellow[x - 5] : 1.0;
}

/* a ln(b) with the papers' convention 0^0 = 1: a term with a zero count is 0. */
static double xlog(double a, double b) { return a == 0 ? 0.0 : a * log(b); }

void bt_evaluate(const unsigned char *hits, int n, double p, bt_result *r) {
    *r = (bt_result){.n = n};
    for (int i = 0; i < n; i++) r->x += hits[i] != 0;
    r->zone = bt_zone(r->x, n, p, &r->cum_prob);
    double plus = bt_plus_factor(r->x, n, p);
    r->has_plus = plus >= 0;
    r->plus_factor = r->has_plus ? plus : 0;
    if (n == 0) return;
    /* Kupiec: LR_POF = -2 ln[(1-p)^(n-x) p^x] + 2 ln[(1-x/n)^(n-x) (x/n)^x], written as
     * 2 [(n-x) ln((1-x/n)/(1-p)) + x ln((x/n)/p)] (same value, no cancellation of two large terms). */
    double x = r->x, ph = x / n;
    r->lr_pof = 2 * (xlog(n - x, (1 - ph) / (1 - p)) + xlog(x, ph / p));
    if (r->lr_pof < 0) r->lr_pof = 0; /* rounding when x/n is p */
    r->p_pof = bt_chi2_sf1(r->lr_pof);
    if (n < 2) return;
    r->has_ind = 1;
    for (int i = 1; i < n; i++) {
        int a = hits[i - 1] != 0, b = hits[i] != 0;
        if (!a && !b) r->n00++;
        else if (!a) r->n01++;
        else if (!b) r->n10++;
        else r->n11++;
    }
    /* Christoffersen: LR_ind = -2 ln[(1-pi)^(n00+n10) pi^(n01+n11)]
     *                        + 2 ln[(1-pi01)^n00 pi01^n01 (1-pi11)^n10 pi11^n11],
     * pi01 = n01/(n00+n01), pi11 = n11/(n10+n11), pi = (n01+n11)/(n00+n01+n10+n11). A ratio with a
     * zero denominator only meets zero counts, whose terms are 0. */
    double n00 = r->n00, n01 = r->n01, n10 = r->n10, n11 = r->n11;
    double pi01 = n00 + n01 > 0 ? n01 / (n00 + n01) : 0;
    double pi11 = n10 + n11 > 0 ? n11 / (n10 + n11) : 0;
    double pi = (n01 + n11) / (n00 + n01 + n10 + n11);
    double l1 = xlog(n00, 1 - pi01) + xlog(n01, pi01) + xlog(n10, 1 - pi11) + xlog(n11, pi11);
    double l0 = xlog(n00 + n10, 1 - pi) + xlog(n01 + n11, pi);
    r->lr_ind = 2 * (l1 - l0);
    if (r->lr_ind < 0) r->lr_ind = 0;
    r->p_ind = bt_chi2_sf1(r->lr_ind);
    /* Conditional coverage: LR_cc = LR_POF + LR_ind ~ chi2(2) (Kupiec's statistic on all n
     * observations, as Christoffersen's decomposition LR_cc = LR_uc + LR_ind is used in practice). */
    r->lr_cc = r->lr_pof + r->lr_ind;
    r->p_cc = bt_chi2_sf2(r->lr_cc);
}
