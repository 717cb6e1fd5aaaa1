/* quality.c: see quality.h. Findings are listed in canonical order (factor id, then date),
 * so the report does not depend on row order. */
#include "quality.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

void quality_free(quality *q) {
    free(q->rows);
    memset(q, 0, sizeof *q);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One finding: refused (an error) or recorded. */
static int finding(quality *q, const params *p, const char *file, long long line,
                   const char *factor, const char *check, double value, const char *what,
                   char *err) {
    if (!p->report_bad_data)
        return snprintf(err, MCVAR_ERRLEN, "%s:%lld: factor '%s': %s (value %.17g); set "
                        "on_bad_data=report to run on and list it in data_quality.csv",
                        file, line, factor, what, value), -1;
    if (q->n == q->cap) {
        int cap = q->cap ? q->cap * 2 : 16;
        dq_row *g = realloc(q->rows, sizeof *g * (size_t)cap);
        if (!g) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
        q->rows = g;
        q->cap = cap;
    }
    dq_row *d = &q->rows[q->n++];
    snprintf(d->file, sizeof d->file, "%s", file);
    snprintf(d->factor, sizeof d->factor, "%s", factor);
    snprintf(d->check, sizeof d->check, "%s", check);
    snprintf(d->value, sizeof d->value, "%.17g", value);
    d->line = line;
    return 0;
}

/* units: a vol level above max_volatility, a rate above max_rate in absolute value */
static int units(quality *q, const market *m, const params *p, int f, double level,
                 const char *file, long long line, char *err) {
    char what[160];
    if (m->fkind[f] == KIND_VOL && level > p->max_volatility) {
        snprintf(what, sizeof what, "volatility above max_volatility %g (a percentage given as a number?)", p->max_volatility);
        return finding(q, p, file, line, m->ids.keys[f], "max_volatility", level, what, err);
    }
    if (m->fkind[f] == KIND_RATE && fabs(level) > p->max_rate) {
        snprintf(what, sizeof what, "rate above max_rate %g in absolute value (a percentage given as a number?)", p->max_rate);
        return finding(q, p, file, line, m->ids.keys[f], "max_rate", level, what, err);
    }
    return 0;
}

int quality_check(quality *q, const market *m, const params *p, const char *factors_path,
                  const char *history_path, char *err) {
    int n = m->n, T = m->ndates - 1;
    for (int f = 0; f < n; f++)
        if (units(q, m, p, f, m->level[f], factors_path, m->factor_line[f], err)) return -1;
    double *r = malloc(sizeof(double) * (size_t)(T > 0 ? T : 1));
    double *dev = malloc(sizeof(double) * (size_t)(T > 0 ? T : 1));
    if (!r || !dev) {
        free(r);
        free(dev);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    int rc = 0;
    for (int f = 0; !rc && f < n; f++) {
        const char *id = m->ids.keys[f];
        for (int d = 0; !rc && d <= T; d++)
            rc = units(q, m, p, f, m->history[(size_t)d * n + f], history_path,
                       m->history_line[(size_t)d * n + f], err);
        /* robust scale: 1.4826 x the median absolute deviation from the median return */
        for (int t = 0; t < T; t++)
            r[t] = market_return(m, f, m->history[(size_t)t * n + f], m->history[(size_t)(t + 1) * n + f]);
        memcpy(dev, r, sizeof(double) * (size_t)T);
        qsort(dev, (size_t)T, sizeof *dev, cmp_double);
        double med = T % 2 ? dev[T / 2] : 0.5 * (dev[T / 2 - 1] + dev[T / 2]);
        for (int t = 0; t < T; t++) dev[t] = fabs(r[t] - med);
        qsort(dev, (size_t)T, sizeof *dev, cmp_double);
        double sigma = 1.4826 * (T % 2 ? dev[T / 2] : 0.5 * (dev[T / 2 - 1] + dev[T / 2]));
        /* today's level against the last history date: the same test as a daily move */
        double today = market_return(m, f, m->history[(size_t)T * n + f], m->level[f]);
        if (sigma > 0 && fabs(today - med) > p->max_move_sigmas * sigma) {
            char what[200];
            snprintf(what, sizeof what, "today's level is %.1f robust standard deviations of a "
                     "daily move away from the history's last level on %s (max_move_sigmas %g)",
                     fabs(today - med) / sigma, m->dates[T], p->max_move_sigmas);
            rc = finding(q, p, factors_path, m->factor_line[f], id, "today_vs_history",
                         m->level[f], what, err);
        }
        int run = 0;
        for (int t = 0; !rc && t < T; t++) {
            size_t at = (size_t)(t + 1) * n + f;
            if (sigma > 0 && fabs(r[t] - med) > p->max_move_sigmas * sigma) {
                char what[200];
                snprintf(what, sizeof what, "the move from %s to %s is %.1f robust standard "
                         "deviations, beyond max_move_sigmas %g", m->dates[t], m->dates[t + 1],
                         fabs(r[t] - med) / sigma, p->max_move_sigmas);
                rc = finding(q, p, history_path, m->history_line[at], id, "max_move_sigmas",
                             m->history[at], what, err);
            }
            run = m->history[at] == m->history[at - n] ? run + 1 : 0;
            if (!rc && run == p->stale_days) {
                char what[200];
                snprintf(what, sizeof what, "unchanged for %d days up to %s (stale_days %d)",
                         run, m->dates[t + 1], p->stale_days);
                rc = finding(q, p, history_path, m->history_line[at], id, "stale_days",
                             m->history[at], what, err);
            }
        }
    }
    free(r);
    free(dev);
    return rc;
}
