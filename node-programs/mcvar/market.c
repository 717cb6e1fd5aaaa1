/* market.c: loads factors (then sorts them by id, so every later step runs in one canonical
 * order whatever the row order of the file), pivots the history by date, reads or estimates
 * the covariance of daily returns, and factors it. */
#include "market.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "inputs.h"

void market_init(market *m) {
    memset(m, 0, sizeof *m);
    idmap_init(&m->ids);
}

void market_free(market *m) {
    for (int i = 0; i < m->n; i++) {
        free(m->kind[i]);
        free(m->curve[i]);
    }
    for (int d = 0; d < m->ndates; d++) free(m->dates[d]);
    free(m->kind); free(m->fkind); free(m->is_rate); free(m->currency); free(m->fx_base);
    free(m->ret); free(m->shift); free(m->curve); free(m->tenor); free(m->level);
    free(m->hash); free(m->dates); free(m->history); free(m->history_line); free(m->factor_line); free(m->cov); free(m->chol);
    idmap_free(&m->ids);
    market_init(m);
}

uint64_t market_hash(const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, 64 bit */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

int market_valid_date(const char *s) {
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-') return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i])) return 0;
    int y = atoi(s), mo = atoi(s + 5), d = atoi(s + 8);
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1 || mo < 1 || mo > 12 || d < 1) return 0;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= days[mo - 1] + (mo == 2 && leap);
}

double market_return(const market *m, int f, double a, double b) {
    switch (m->ret[f]) {
    case RET_LOG: return log(b / a);
    case RET_RELATIVE: return b / a - 1.0;
    case RET_ABSOLUTE: return b - a;
    default: return log((b + m->shift[f]) / (a + m->shift[f]));
    }
}

double market_apply(const market *m, int f, double a, double x) {
    switch (m->ret[f]) {
    case RET_LOG: return a * exp(x);
    case RET_RELATIVE: return a * (1.0 + x);
    case RET_ABSOLUTE: return a + x;
    default: return (a + m->shift[f]) * exp(x) - m->shift[f];
    }
}

/* A level the return type can start from: positive for log, above -shift for shifted-log,
 * non-zero for relative. */
static const char *level_problem(return_type t, double shift, double level) {
    if (t == RET_LOG && !(level > 0)) return "must be positive (log returns)";
    if (t == RET_SHIFTED_LOG && !(level + shift > 0)) return "must be above -shift (shifted-log returns)";
    if (t == RET_RELATIVE && level == 0) return "must not be 0 (relative returns)";
    return NULL;
}

typedef struct factor_row_data {
    char *id, *kind, *curve;
    factor_kind fkind;
    char currency[4], fx_base[4];
    return_type ret;
    double shift, tenor, level;
    long long line;
} factor_row_data;

typedef struct factor_load {
    factor_row_data *rows;
    int n, cap;
    idmap seen;
} factor_load;

static int iso_code(const char *s) {
    return strlen(s) == 3 && isupper((unsigned char)s[0]) && isupper((unsigned char)s[1]) &&
           isupper((unsigned char)s[2]);
}

/* cols: factor_id,kind,level,currency,quote,return_type,shift,curve,tenor_years */
static int factor_row(void *ctx, char **c, char *err) {
    factor_load *l = ctx;
    factor_row_data r = {0};
    const char *id = c[0];
    if (!id[0]) return snprintf(err, 256, "empty factor_id"), -1;
    if (!c[1][0]) return snprintf(err, 256, "empty kind for factor '%s'", id), -1;
    if (csv_number(c[2], &r.level))
        return snprintf(err, 256, "level '%s' of factor '%s' is not a number", c[2], id), -1;
    r.fkind = strcmp(c[1], "equity") == 0 ? KIND_EQUITY : strcmp(c[1], "fx") == 0 ? KIND_FX
            : strcmp(c[1], "rate") == 0 ? KIND_RATE : strcmp(c[1], "vol") == 0 ? KIND_VOL
                                                                               : KIND_OTHER;
    if (r.fkind == KIND_FX) {
        const char *q = c[4];
        if (strlen(q) != 6 || !isupper((unsigned char)q[0]) || !isupper((unsigned char)q[1]) ||
            !isupper((unsigned char)q[2]) || !iso_code(q + 3))
            return snprintf(err, 256, "fx factor '%s' needs quote BASEQUOTE (e.g. USDJPY), got '%s'", id, q), -1;
        memcpy(r.fx_base, q, 3);
        memcpy(r.currency, q + 3, 3);
        if (c[3][0] && strcmp(c[3], r.currency) != 0)
            return snprintf(err, 256, "fx factor '%s': currency '%s' is not the quote currency of %s", id, c[3], q), -1;
        if (strcmp(r.fx_base, r.currency) == 0)
            return snprintf(err, 256, "fx factor '%s': quote %s pairs a currency with itself", id, q), -1;
    } else if (r.fkind != KIND_VOL || c[3][0]) {
        if (!iso_code(c[3]))
            return snprintf(err, 256, "factor '%s' needs a currency (ISO code such as USD), got '%s'", id, c[3]), -1;
        memcpy(r.currency, c[3], 3);
    }
    const char *rt = c[5];
    if (!rt[0]) r.ret = r.fkind == KIND_RATE ? RET_ABSOLUTE : RET_LOG;
    else if (strcmp(rt, "log") == 0) r.ret = RET_LOG;
    else if (strcmp(rt, "relative") == 0) r.ret = RET_RELATIVE;
    else if (strcmp(rt, "absolute") == 0) r.ret = RET_ABSOLUTE;
    else if (strcmp(rt, "shifted-log") == 0) r.ret = RET_SHIFTED_LOG;
    else return snprintf(err, 256, "return_type '%s' of factor '%s' is not log, relative, absolute or shifted-log", rt, id), -1;
    if (r.ret == RET_SHIFTED_LOG && (csv_number(c[6], &r.shift) || !(r.shift > 0)))
        return snprintf(err, 256, "shifted-log factor '%s' needs shift > 0, got '%s'", id, c[6]), -1;
    const char *why = level_problem(r.ret, r.shift, r.level);
    if (why) return snprintf(err, 256, "level %s of factor '%s' %s", c[2], id, why), -1;
    if (r.fkind == KIND_VOL && !(r.level > 0))
        return snprintf(err, 256, "volatility level %s of factor '%s' must be positive", c[2], id), -1;
    if (c[7][0]) {
        if (r.fkind != KIND_RATE) return snprintf(err, 256, "factor '%s' names curve '%s' but is not a rate", id, c[7]), -1;
        if (csv_number(c[8], &r.tenor) || r.tenor < 0)
            return snprintf(err, 256, "rate factor '%s' on curve '%s' needs tenor_years >= 0, got '%s'", id, c[7], c[8]), -1;
    }
    int idx, rc = idmap_add(&l->seen, id, &idx);
    if (rc == 1) return snprintf(err, 256, "duplicate factor_id '%s'", id), -1;
    if (rc < 0) return snprintf(err, 256, "out of memory"), -1;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        factor_row_data *g = realloc(l->rows, sizeof *g * (size_t)cap);
        if (!g) return snprintf(err, 256, "out of memory"), -1;
        l->rows = g;
        l->cap = cap;
    }
    r.line = (long long)inputs_current_line();
    r.id = strdup(id);
    r.kind = strdup(c[1]);
    r.curve = c[7][0] ? strdup(c[7]) : NULL;
    l->rows[l->n++] = r;
    if (!r.id || !r.kind || (c[7][0] && !r.curve)) return snprintf(err, 256, "out of memory"), -1;
    return 0;
}

static int by_id(const void *a, const void *b) {
    return strcmp(((const factor_row_data *)a)->id, ((const factor_row_data *)b)->id);
}

int market_read_factors(market *m, const char *path, const gio_read_options *o, char *err) {
    static const char *const cols[] = {"factor_id", "kind", "level", "?currency", "?quote",
                                       "?return_type", "?shift", "?curve", "?tenor_years"};
    factor_load l = {0};
    idmap_init(&l.seen);
    int rc = inputs_read_table(path, o, cols, 9, factor_row, &l, err);
    idmap_free(&l.seen);
    if (!rc && l.n == 0) rc = (snprintf(err, MCVAR_ERRLEN, "%s: no factors", path), -1);
    if (!rc) {
        qsort(l.rows, (size_t)l.n, sizeof *l.rows, by_id);
        size_t n = (size_t)l.n;
        m->kind = calloc(n, sizeof *m->kind);
        m->fkind = calloc(n, sizeof *m->fkind);
        m->is_rate = calloc(n, sizeof *m->is_rate);
        m->currency = calloc(n, sizeof *m->currency);
        m->fx_base = calloc(n, sizeof *m->fx_base);
        m->ret = calloc(n, sizeof *m->ret);
        m->shift = calloc(n, sizeof *m->shift);
        m->curve = calloc(n, sizeof *m->curve);
        m->tenor = calloc(n, sizeof *m->tenor);
        m->level = calloc(n, sizeof *m->level);
        m->hash = calloc(n, sizeof *m->hash);
        m->factor_line = calloc(n, sizeof *m->factor_line);
        if (!m->kind || !m->fkind || !m->is_rate || !m->currency || !m->fx_base || !m->ret ||
            !m->shift || !m->curve || !m->tenor || !m->level || !m->hash || !m->factor_line)
            rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
    }
    for (int i = 0; i < l.n; i++) {
        factor_row_data *r = &l.rows[i];
        int idx;
        if (!rc && idmap_add(&m->ids, r->id, &idx) < 0)
            rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
        if (!rc) {
            m->kind[i] = r->kind;
            m->curve[i] = r->curve;
            r->kind = r->curve = NULL;
            m->fkind[i] = r->fkind;
            m->is_rate[i] = r->fkind == KIND_RATE;
            memcpy(m->currency[i], r->currency, 4);
            memcpy(m->fx_base[i], r->fx_base, 4);
            m->ret[i] = r->ret;
            m->shift[i] = r->shift;
            m->tenor[i] = r->tenor;
            m->level[i] = r->level;
            m->hash[i] = market_hash(r->id);
            m->factor_line[i] = r->line;
            m->n = i + 1;
        }
        free(r->id);
        free(r->kind);
        free(r->curve);
    }
    free(l.rows);
    return rc;
}

/* History rows may come in any order: collect (date, factor, level) then pivot. */
typedef struct history_load {
    market *m;
    idmap dates;
    int *date_of, *factor_of;
    long long *line_of;
    double *value;
    size_t n, cap;
} history_load;

static int history_row(void *ctx, char **c, char *err) {
    history_load *h = ctx;
    double level;
    int f = idmap_find(&h->m->ids, c[1]), d;
    if (!market_valid_date(c[0]))
        return snprintf(err, 256, "as_of '%s' is not a calendar date YYYY-MM-DD", c[0]), -1;
    if (f < 0) return snprintf(err, 256, "unknown factor '%s'", c[1]), -1;
    if (csv_number(c[2], &level))
        return snprintf(err, 256, "level '%s' is not a number", c[2]), -1;
    const char *why = level_problem(h->m->ret[f], h->m->shift[f], level);
    if (why) return snprintf(err, 256, "level %s of factor '%s' %s", c[2], c[1], why), -1;
    if (idmap_add(&h->dates, c[0], &d) < 0) return snprintf(err, 256, "out of memory"), -1;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 4096;
        int *a = realloc(h->date_of, sizeof *a * cap);
        if (a) h->date_of = a;
        int *b = realloc(h->factor_of, sizeof *b * cap);
        if (b) h->factor_of = b;
        double *v = realloc(h->value, sizeof *v * cap);
        if (v) h->value = v;
        long long *ln = realloc(h->line_of, sizeof *ln * cap);
        if (ln) h->line_of = ln;
        if (!a || !b || !v || !ln) return snprintf(err, 256, "out of memory"), -1;
        h->cap = cap;
    }
    h->date_of[h->n] = d;
    h->factor_of[h->n] = f;
    h->line_of[h->n] = (long long)inputs_current_line();
    h->value[h->n++] = level;
    return 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ISO dates sort as strings; rank[d] is the position of date d in time order. */
static int pivot(history_load *h, const char *path, char *err) {
    market *m = h->m;
    int nd = h->dates.n, *rank = malloc(sizeof(int) * (size_t)(nd ? nd : 1)), rc = -1;
    char **sorted = malloc(sizeof(char *) * (size_t)(nd ? nd : 1));
    unsigned char *seen = calloc((size_t)nd * (size_t)m->n + 1, 1);
    m->history = malloc(sizeof(double) * ((size_t)nd * (size_t)m->n + 1));
    m->history_line = malloc(sizeof(long long) * ((size_t)nd * (size_t)m->n + 1));
    if (!rank || !sorted || !seen || !m->history || !m->history_line) {
        snprintf(err, MCVAR_ERRLEN, "out of memory");
        goto err;
    }
    memcpy(sorted, h->dates.keys, sizeof(char *) * (size_t)nd);
    qsort(sorted, (size_t)nd, sizeof *sorted, cmp_str);
    for (int i = 0; i < nd; i++) rank[idmap_find(&h->dates, sorted[i])] = i;
    for (size_t i = 0; i < h->n; i++) {
        size_t at = (size_t)rank[h->date_of[i]] * (size_t)m->n + (size_t)h->factor_of[i];
        if (seen[at]) {
            snprintf(err, MCVAR_ERRLEN, "%s: two levels for factor '%s' on %s", path,
                     m->ids.keys[h->factor_of[i]], h->dates.keys[h->date_of[i]]);
            goto err;
        }
        seen[at] = 1;
        m->history[at] = h->value[i];
        m->history_line[at] = h->line_of[i];
    }
    for (int d = 0; d < nd; d++)
        for (int f = 0; f < m->n; f++)
            if (!seen[(size_t)d * (size_t)m->n + (size_t)f]) {
                snprintf(err, MCVAR_ERRLEN, "%s: date %s has no level for factor '%s'", path,
                         sorted[d], m->ids.keys[f]);
                goto err;
            }
    m->dates = calloc((size_t)nd, sizeof *m->dates);
    if (!m->dates) {
        snprintf(err, MCVAR_ERRLEN, "out of memory");
        goto err;
    }
    m->ndates = nd;
    for (int d = 0; d < nd; d++)
        if (!(m->dates[d] = strdup(sorted[d]))) {
            snprintf(err, MCVAR_ERRLEN, "out of memory");
            goto err;
        }
    rc = 0;
err:
    free(rank);
    free(sorted);
    free(seen);
    return rc;
}

int market_read_history(market *m, const char *path, const gio_read_options *o, char *err) {
    static const char *const cols[] = {"as_of", "factor_id", "level"};
    history_load h = {.m = m};
    idmap_init(&h.dates);
    int rc = inputs_read_table(path, o, cols, 3, history_row, &h, err);
    if (!rc && h.dates.n < 3) {
        snprintf(err, MCVAR_ERRLEN, "%s: history has %d dates; at least 3 are needed", path,
                 h.dates.n);
        rc = -1;
    }
    if (!rc) rc = pivot(&h, path, err);
    idmap_free(&h.dates);
    free(h.date_of);
    free(h.factor_of);
    free(h.line_of);
    free(h.value);
    return rc;
}

void market_lookback(market *m, int lookback) {
    if (lookback <= 0 || m->ndates <= lookback + 1) return;
    int drop = m->ndates - (lookback + 1);
    for (int d = 0; d < drop; d++) free(m->dates[d]);
    memmove(m->dates, m->dates + drop, sizeof *m->dates * (size_t)(lookback + 1));
    memmove(m->history, m->history + (size_t)drop * (size_t)m->n,
            sizeof(double) * (size_t)(lookback + 1) * (size_t)m->n);
    memmove(m->history_line, m->history_line + (size_t)drop * (size_t)m->n,
            sizeof(long long) * (size_t)(lookback + 1) * (size_t)m->n);
    m->ndates = lookback + 1;
}

typedef struct cov_load {
    market *m;
    unsigned char *seen;
} cov_load;

static int cov_row(void *ctx, char **c, char *err) {
    cov_load *l = ctx;
    market *m = l->m;
    int i = idmap_find(&m->ids, c[0]), j = idmap_find(&m->ids, c[1]);
    double v;
    if (i < 0) return snprintf(err, 256, "unknown factor '%s'", c[0]), -1;
    if (j < 0) return snprintf(err, 256, "unknown factor '%s'", c[1]), -1;
    if (csv_number(c[2], &v)) return snprintf(err, 256, "covariance '%s' is not a number", c[2]), -1;
    if (i == j && v < 0) return snprintf(err, 256, "negative variance %s for '%s'", c[2], c[0]), -1;
    size_t a = (size_t)i * (size_t)m->n + (size_t)j, b = (size_t)j * (size_t)m->n + (size_t)i;
    if (l->seen[a] == 2) return snprintf(err, 256, "duplicate entry (%s, %s)", c[0], c[1]), -1;
    /* Both halves may be given; they must agree up to rounding of their printing. */
    if (l->seen[a] == 1 && fabs(m->cov[a] - v) > 1e-9 * fmax(fabs(v), fabs(m->cov[a])))
        return snprintf(err, 256, "entry (%s, %s) contradicts its symmetric entry", c[0], c[1]), -1;
    m->cov[a] = m->cov[b] = v;
    l->seen[a] = 2;
    if (!l->seen[b]) l->seen[b] = 1;
    return 0;
}

int market_read_covariance(market *m, const char *path, const gio_read_options *o,
                           char *err) {
    static const char *const cols[] = {"factor_i", "factor_j", "covariance"};
    size_t nn = (size_t)m->n * (size_t)m->n;
    cov_load l = {.m = m, .seen = calloc(nn, 1)};
    m->cov = calloc(nn, sizeof(double));
    if (!l.seen || !m->cov) {
        free(l.seen);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    int rc = inputs_read_table(path, o, cols, 3, cov_row, &l, err);
    for (int i = 0; !rc && i < m->n; i++)
        for (int j = 0; !rc && j < m->n; j++)
            if (!l.seen[(size_t)i * (size_t)m->n + (size_t)j]) {
                snprintf(err, MCVAR_ERRLEN, "%s: no covariance for (%s, %s)", path,
                         m->ids.keys[i], m->ids.keys[j]);
                rc = -1;
            }
    free(l.seen);
    return rc;
}

int market_estimate_covariance(market *m, double lambda, char *err) {
    int n = m->n, T = m->ndates - 1;
    double *ret = malloc(sizeof(double) * (size_t)T * (size_t)n), *mean = calloc((size_t)n, sizeof(double));
    m->cov = calloc((size_t)n * (size_t)n, sizeof(double));
    if (!ret || !mean || !m->cov) {
        free(ret);
        free(mean);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    int ewma = lambda > 0 && lambda < 1;
    for (int t = 0; t < T; t++)
        for (int f = 0; f < n; f++) {
            double r = market_return(m, f, m->history[(size_t)t * n + f],
                                     m->history[(size_t)(t + 1) * n + f]);
            ret[(size_t)t * n + f] = r;
            mean[f] += r;
        }
    for (int f = 0; f < n; f++) mean[f] = ewma ? 0 : mean[f] / T;
    /* Equal weights: 1 / (T - 1). EWMA (RiskMetrics): weight (1 - lambda) lambda^(T-1-t) for
     * the return ending on date t + 1, normalised by 1 - lambda^T so the weights sum to 1. */
    double norm = ewma ? (1 - lambda) / (1 - pow(lambda, T)) : 1.0 / (T - 1);
    for (int t = 0; t < T; t++) {
        const double *r = ret + (size_t)t * n;
        double wt = ewma ? norm * pow(lambda, T - 1 - t) : norm;
        for (int i = 0; i < n; i++) {
            double di = wt * (r[i] - mean[i]);
            double *row = m->cov + (size_t)i * n;
            for (int j = 0; j <= i; j++) row[j] += di * (r[j] - mean[j]);
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) m->cov[(size_t)j * n + i] = m->cov[(size_t)i * n + j];
    free(ret);
    free(mean);
    return 0;
}

int market_cholesky(market *m, char *err) {
    int n = m->n;
    double *L = calloc((size_t)n * (size_t)n, sizeof(double)), maxdiag = 0;
    if (!L) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    for (int i = 0; i < n; i++)
        if (m->cov[(size_t)i * n + i] > maxdiag) maxdiag = m->cov[(size_t)i * n + i];
    /* Pivots this small relative to the largest variance are rounding noise of a
     * semidefinite matrix: they get a zero column instead of failing. */
    double tol = 1e-12 * (maxdiag > 0 ? maxdiag : 1);
    for (int j = 0; j < n; j++) {
        double d = m->cov[(size_t)j * n + j];
        for (int k = 0; k < j; k++) d -= L[(size_t)j * n + k] * L[(size_t)j * n + k];
        if (d < -tol * n) {
            snprintf(err, MCVAR_ERRLEN,
                     "covariance matrix is not positive semidefinite (pivot %.3g at factor "
                     "'%s'); check the covariance input", d, m->ids.keys[j]);
            free(L);
            return -1;
        }
        if (d <= tol) continue; /* zero column */
        double piv = sqrt(d);
        L[(size_t)j * n + j] = piv;
        for (int i = j + 1; i < n; i++) {
            double s = m->cov[(size_t)i * n + j];
            for (int k = 0; k < j; k++) s -= L[(size_t)i * n + k] * L[(size_t)j * n + k];
            L[(size_t)i * n + j] = s / piv;
        }
    }
    m->chol = L;
    return 0;
}
