/* market: risk factors, their history (pivoted by date) or a covariance matrix, and the
 * Cholesky factor used to draw correlated shocks. Every factor moves by a log return:
 * scenario level = level * exp(x). */
#ifndef MCVAR_MARKET_H
#define MCVAR_MARKET_H

#include "gio.h"
#include "idmap.h"

typedef struct market {
    idmap ids;          /* factor id -> index */
    int n;              /* factors */
    char **kind;        /* as given: equity, fx, rate, ... */
    int *is_rate;
    double *level;      /* current level */
    int ndates;         /* history: dates, ascending */
    double *history;    /* ndates x n levels, date-major */
    double *cov;        /* n x n covariance of daily log returns */
    double *chol;       /* n x n lower-triangular L with L L^T = cov */
} market;

void market_init(market *m);
void market_free(market *m);
int market_read_factors(market *m, const char *path, const gio_read_options *o, char *err);
int market_read_history(market *m, const char *path, const gio_read_options *o, char *err);
int market_read_covariance(market *m, const char *path, const gio_read_options *o,
                           char *err);
/* Sample covariance (n-1) of daily log returns of the history. */
int market_estimate_covariance(market *m, char *err);
/* Cholesky of cov. Positive semidefinite matrices are accepted (a zero pivot, e.g. of a
 * factor that never moved, gives a zero column); a negative pivot is an error naming the
 * factor. */
int market_cholesky(market *m, char *err);

#endif
