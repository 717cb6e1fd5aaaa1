/* market.c: loads factors, pivots the history by date, reads or estimates the covariance
 * of daily log returns, and factors it. */
#include "market.h"

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
    for (int i = 0; i < m->n; i++) free(m->kind[i]);
    free(m->kind);
    free(m->is_rate);
    free(m->level);
    free(m->history);
    free(m->cov);
    free(m->chol);
    idmap_free(&m->ids);
    market_init(m);
}

static int grow_factors(market *m, int cap) {
    char **kind = realloc(m->kind, sizeof *kind * (size_t)cap);
    if (kind) m->kind = kind;
    int *is_rate = realloc(m->is_rate, sizeof *is_rate * (size_t)cap);
    if (is_rate) m->is_rate = is_rate;
    double *level = realloc(m->level, sizeof *level * (size_t)cap);
    if (level) m->level = level;
    return kind && is_rate && level ? 0 : -1;
}

static int factor_row(void *ctx, char **c, char *err) {
    market *m = ctx;
    double level;
    if (!c[0][0]) return snprintf(err, 256, "empty factor_id"), -1;
    if (!c[1][0]) return snprintf(err, 256, "empty kind for factor '%s'", c[0]), -1;
    if (csv_number(c[2], &level))
        return snprintf(err, 256, "level '%s' of factor '%s' is not a number", c[2], c[0]), -1;
    if (level <= 0)
        return snprintf(err, 256, "level %s of factor '%s' must be positive (factors move by "
                                  "log returns)", c[2], c[0]), -1;
    int idx, rc = idmap_add(&m->ids, c[0], &idx);
    if (rc == 1) return snprintf(err, 256, "duplicate factor_id '%s'", c[0]), -1;
    if (rc < 0 || (idx % 64 == 0 && grow_factors(m, idx + 64)))
        return snprintf(err, 256, "out of memory"), -1;
    m->kind[idx] = strdup(c[1]);
    m->is_rate[idx] = strcmp(c[1], "rate") == 0;
    m->level[idx] = level;
    m->n = idx + 1;
    return m->kind[idx] ? 0 : (snprintf(err, 256, "out of memory"), -1);
}

int market_read_factors(market *m, const char *path, const gio_read_options *o, char *err) {
    static const char *const cols[] = {"factor_id", "kind", "level"};
    if (inputs_read_table(path, o, cols, 3, factor_row, m, err)) return -1;
    if (m->n == 0) return snprintf(err, MCVAR_ERRLEN, "%s: no factors", path), -1;
    return 0;
}

/* History rows may come in any order: collect (date, factor, level) then pivot. */
typedef struct history_load {
    market *m;
    idmap dates;
    int *date_of, *factor_of;
    double *value;
    size_t n, cap;
} history_load;

static int history_row(void *ctx, char **c, char *err) {
    history_load *h = ctx;
    double level;
    int f = idmap_find(&h->m->ids, c[1]), d;
    if (strlen(c[0]) != 10 || c[0][4] != '-' || c[0][7] != '-')
        return snprintf(err, 256, "as_of '%s' is not a date YYYY-MM-DD", c[0]), -1;
    if (f < 0) return snprintf(err, 256, "unknown factor '%s'", c[1]), -1;
    if (csv_number(c[2], &level))
        return snprintf(err, 256, "level '%s' is not a number", c[2]), -1;
    if (level <= 0)
        return snprintf(err, 256, "level %s of factor '%s' must be positive", c[2], c[1]), -1;
    if (idmap_add(&h->dates, c[0], &d) < 0) return snprintf(err, 256, "out of memory"), -1;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 4096;
        int *a = realloc(h->date_of, sizeof *a * cap);
        if (a) h->date_of = a;
        int *b = realloc(h->factor_of, sizeof *b * cap);
        if (b) h->factor_of = b;
        double *v = realloc(h->value, sizeof *v * cap);
        if (v) h->value = v;
        if (!a || !b || !v) return snprintf(err, 256, "out of memory"), -1;
        h->cap = cap;
    }
    h->date_of[h->n] = d;
    h->factor_of[h->n] = f;
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
    if (!rank || !sorted || !seen || !m->history) {
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
    }
    for (int d = 0; d < nd; d++)
        for (int f = 0; f < m->n; f++)
            if (!seen[(size_t)d * (size_t)m->n + (size_t)f]) {
                snprintf(err, MCVAR_ERRLEN, "%s: date %s has no level for factor '%s'", path,
                         sorted[d], m->ids.keys[f]);
                goto err;
            }
    m->ndates = nd;
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
    free(h.value);
    return rc;
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

int market_estimate_covariance(market *m, char *err) {
    int n = m->n, T = m->ndates - 1;
    double *ret = malloc(sizeof(double) * (size_t)T * (size_t)n), *mean = calloc((size_t)n, sizeof(double));
    m->cov = calloc((size_t)n * (size_t)n, sizeof(double));
    if (!ret || !mean || !m->cov) {
        free(ret);
        free(mean);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    for (int t = 0; t < T; t++)
        for (int f = 0; f < n; f++) {
            double r = log(m->history[(size_t)(t + 1) * n + f] / m->history[(size_t)t * n + f]);
            ret[(size_t)t * n + f] = r;
            mean[f] += r;
        }
    for (int f = 0; f < n; f++) mean[f] /= T;
    for (int t = 0; t < T; t++) {
        const double *r = ret + (size_t)t * n;
        for (int i = 0; i < n; i++) {
            double di = r[i] - mean[i];
            double *row = m->cov + (size_t)i * n;
            for (int j = 0; j <= i; j++) row[j] += di * (r[j] - mean[j]);
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double v = m->cov[(size_t)i * n + j] / (T - 1);
            m->cov[(size_t)i * n + j] = m->cov[(size_t)j * n + i] = v;
        }
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
