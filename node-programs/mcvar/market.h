/* market: risk factors (in canonical order: sorted by factor id), their dated history or a
 * covariance matrix of daily returns, and the Cholesky factor used to draw correlated
 * shocks. Each factor moves by its own return type (README, "Model"). */
#ifndef MCVAR_MARKET_H
#define MCVAR_MARKET_H

#include <stdint.h>

#include "gio.h"
#include "idmap.h"

typedef enum { KIND_EQUITY, KIND_FX, KIND_RATE, KIND_VOL, KIND_OTHER } factor_kind;
typedef enum { RET_LOG, RET_RELATIVE, RET_ABSOLUTE, RET_SHIFTED_LOG } return_type;

typedef struct market {
    idmap ids;          /* factor id -> index, in canonical (sorted) order */
    int n;              /* factors */
    char **kind;        /* as given: equity, fx, rate, vol, ... */
    factor_kind *fkind;
    int *is_rate;
    char (*currency)[4]; /* ISO code ("" for vol); fx: the quote currency */
    char (*fx_base)[4];  /* fx: the pair's base currency */
    return_type *ret;
    double *shift;      /* shifted-log displacement */
    char **curve;       /* rate: curve name or NULL */
    double *tenor;      /* rate on a curve: tenor in years */
    double *level;      /* current level */
    uint64_t *hash;     /* FNV-1a of the factor id: keys its random stream */
    int ndates;         /* history: dates, ascending */
    char **dates;       /* YYYY-MM-DD, ndates */
    double *history;    /* ndates x n levels, date-major */
    long long *history_line; /* ndates x n: the history file's line of each level */
    long long *factor_line;  /* the factors file's line of each factor */
    double *cov;        /* n x n covariance of daily returns */
    double *chol;       /* n x n lower-triangular L with L L^T = cov */
} market;

void market_init(market *m);
void market_free(market *m);
/* Reads the factors and puts them in canonical order (by factor id). */
int market_read_factors(market *m, const char *path, const gio_read_options *o, char *err);
int market_read_history(market *m, const char *path, const gio_read_options *o, char *err);
/* Keeps the last lookback + 1 dates (lookback 0: all). */
void market_lookback(market *m, int lookback);
int market_read_covariance(market *m, const char *path, const gio_read_options *o,
                           char *err);
/* The return of factor f from level a to level b, and the level reached from a by return x. */
double market_return(const market *m, int f, double a, double b);
double market_apply(const market *m, int f, double a, double x);
/* Sample covariance (n-1) of daily returns of the history; with 0 < lambda < 1 the
 * RiskMetrics EWMA covariance (zero mean) instead. */
int market_estimate_covariance(market *m, double lambda, char *err);
/* Cholesky of cov. Positive semidefinite matrices are accepted (a zero pivot, e.g. of a
 * factor that never moved, gives a zero column); a negative pivot is an error naming the
 * factor. */
int market_cholesky(market *m, char *err);
/* 1 when s is a calendar-valid YYYY-MM-DD date. */
int market_valid_date(const char *s);
uint64_t market_hash(const char *s);

#endif
