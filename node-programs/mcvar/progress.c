/* progress.c: estimates at checkpoints, the progress file, the adaptive stop.
 *
 * The estimates are the ones var_summary.csv reports (risk.c, README "Statistics"): with the
 * first n scenarios' P&L sorted ascending, w = (1 - c) n, k = ceil(w), m = floor(w):
 * VaR = -p_(k); ES = -(p_(1) + ... + p_(m) + (w - m) p_(m+1)) / w; var_stderr the
 * order-statistic interval (p_(k+d) - p_(k-d)) / 2, d = ceil(sqrt(n a (1 - a))), a = w / n
 * (David and Nagaraja, "Order Statistics", 7.1); es_stderr = sd(max(-p - VaR, 0)) /
 * (a sqrt(n)) (Chen, "Nonparametric estimation of expected shortfall", 2008). Only the
 * K = max(k + d, m + 1) smallest values are read, in order: tail_pool.h keeps them on rank 0
 * from what the ranks send at each checkpoint (a few per cent of each round). es_stderr's
 * sums run over the tail only (below), so they round differently from risk.c's pass over
 * all n: the last checkpoint of a full run equals var_summary.csv's VaR and ES exactly and
 * its es_stderr to about 1e-12 relative. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gio_mpi.h"
#include "risk.h"
#include "rounds.h"

double mcvar_rse(double value, double se) {
    if (value == 0) return se == 0 ? 0 : INFINITY;
    return fabs(se / value);
}

int mcvar_progress_init(mcvar_progress *g, const char *path, const params *p, long long cap,
                        int nnodes, char *const *node_path) {
    memset(g, 0, sizeof *g);
    g->path = path;
    g->target_rse = p->target_rse;
    g->target_all_nodes = p->target_all_nodes;
    g->base = p->checkpoint_scenarios;
    g->cap = cap;
    g->nnodes = nnodes;
    g->nlevels = p->nconfidence;
    g->node_path = node_path;
    g->confidence = p->confidence;
    /* without a file, only what the target needs */
    g->nest = path || (g->target_rse > 0 && g->target_all_nodes) ? nnodes : 1;
    g->est = calloc((size_t)nnodes * (size_t)g->nlevels, sizeof *g->est);
    g->msg = calloc((size_t)g->nest + 2, sizeof *g->msg);
    g->lacking = calloc((size_t)g->nest, 1);
    if (path && gio_mpi_rank() == 0) remove(path); /* an earlier run's progress is not this run's */
    return g->est && g->msg && g->lacking && !tail_pool_init(&g->tail, g->nest) ? 0 : -1;
}

void mcvar_progress_free(mcvar_progress *g) {
    free(g->rows);
    free(g->est);
    free(g->msg);
    free(g->lacking);
    tail_pool_free(&g->tail);
    memset(g, 0, sizeof *g);
}

/* The ranks one level's figures read, from n alone (as risk.c's level_ranks and se_reach). */
typedef struct level_ranks {
    long long k, m, lo, hi, need;
    double w, frac;
} level_ranks;

static level_ranks ranks_at(const mcvar_progress *g, int l, long long n) {
    level_ranks r;
    risk_tail_weight(g->confidence[l], n, &r.m, &r.frac);
    r.w = (double)r.m + r.frac;
    if (r.m == 0 && r.frac == 0) { r.m = 1; r.w = 1; } /* as risk.c */
    r.k = risk_tail_count(g->confidence[l], n);
    double a = r.w / (double)n;
    long long d = (long long)ceil(sqrt((double)n * a * (1 - a)));
    r.lo = r.k - d < 1 ? 1 : r.k - d;
    r.hi = r.k + d > n ? n : r.k + d;
    long long es_need = r.m + (r.frac > 0) > n ? n : r.m + (r.frac > 0);
    r.need = r.hi > es_need ? r.hi : es_need;
    return r;
}

/* How many of the smallest P&Ls the estimates at n scenarios read. */
static long long need_at(const mcvar_progress *g, long long n) {
    long long need = 1;
    for (int l = 0; l < g->nlevels; l++) {
        long long k = ranks_at(g, l, n).need;
        if (k > need) need = k;
    }
    return need;
}

/* One node's estimates at every level from the smallest of its first n P&Ls, ascending in
 * s[0..need_at(n)) (n >= 1). */
static void estimate(const mcvar_progress *g, const double *s, long long n, mcvar_estimate *out) {
    for (int l = 0; l < g->nlevels; l++) {
        level_ranks r = ranks_at(g, l, n);
        mcvar_estimate *e = &out[l];
        e->var = -s[r.k - 1];
        double tail = 0;
        for (long long i = 0; i < r.m && i < n; i++) tail += s[i];
        if (r.frac > 0 && r.m < n) tail += r.frac * s[r.m];
        e->es = -tail / r.w;
        e->var_se = (s[r.hi - 1] - s[r.lo - 1]) / 2;
        /* The loss beyond VaR, max(-p - VaR, 0), is positive only for p < -VaR, all among
         * the k - 1 smallest: its mean and sum of squared deviations from the tail alone,
         * ss = sum_tail (x - mean)^2 + (n - t) mean^2, equal to risk.c's to rounding. */
        double a = r.w / (double)n, mean = 0, ss = 0;
        long long t = 0;
        while (t < r.k - 1 && s[t] < -e->var) mean += -s[t++] - e->var;
        mean /= (double)n;
        for (long long i = 0; i < t; i++) {
            double x = -s[i] - e->var - mean;
            ss += x * x;
        }
        ss += (double)(n - t) * mean * mean;
        e->es_se = n > 1 ? sqrt(ss / (double)(n - 1)) / (a * sqrt((double)n)) : 0;
    }
}

static int append(mcvar_progress *g, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int len = vsnprintf(g->rows + g->len, g->size - g->len, fmt, ap);
        va_end(ap);
        if (len < 0) return -1;
        if (g->len + (size_t)len < g->size) {
            g->len += (size_t)len;
            return 0;
        }
        size_t size = g->size ? g->size * 2 : 65536;
        while (size <= g->len + (size_t)len) size *= 2;
        char *grown = realloc(g->rows, size);
        if (!grown) return -1;
        g->rows = grown;
        g->size = size;
    }
}

/* A figure's label, quoted per RFC 4180 when the node's name needs it. */
static int append_figure(mcvar_progress *g, const char *what, double conf, const char *node) {
    if (!strpbrk(node, ",\"\r\n")) return append(g, "%s %.15g %s", what, conf, node);
    if (append(g, "\"%s %.15g ", what, conf)) return -1;
    for (const char *c = node; *c; c++)
        if (append(g, *c == '"' ? "\"\"" : "%c", *c)) return -1;
    return append(g, "\"");
}

static double unsigned_zero(double x) { return x + 0.0; }

/* Every node (the top first), levels from the highest confidence, VaR then ES: the first
 * figure is the headline (the top node's VaR at the highest confidence). */
static int append_checkpoint(mcvar_progress *g, long long done) {
    for (int i = 0; i < g->nnodes; i++)
        for (int l = g->nlevels - 1; l >= 0; l--) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            for (int es = 0; es < 2; es++) {
                if (append(g, "%lld,%lld,scenarios,", done, g->cap) ||
                    append_figure(g, es ? "ES" : "VaR", g->confidence[l], g->node_path[i]) ||
                    append(g, ",%.17g,%.17g\n", unsigned_zero(es ? e->es : e->var),
                           unsigned_zero(es ? e->es_se : e->var_se)))
                    return -1;
            }
        }
    return 0;
}

/* The file's directory part and name: the temporary file goes beside it, hidden. */
static int replace_file(const mcvar_progress *g, char *err, size_t errlen) {
    static const char header[] = "done,total,unit,figure,value,stderr\n";
    const char *slash = strrchr(g->path, '/');
    int dirlen = slash ? (int)(slash - g->path + 1) : 0;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%.*s.%s.tmp.%ld", dirlen, g->path,
                 slash ? slash + 1 : g->path, (long)getpid()) >= (int)sizeof tmp)
        return snprintf(err, errlen, "%s: path too long", g->path), -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) return snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno)), -1;
    int bad = fwrite(header, 1, sizeof header - 1, f) != sizeof header - 1 ||
              fwrite(g->rows, 1, g->len, f) != g->len;
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        remove(tmp);
        return -1;
    }
    if (rename(tmp, g->path) != 0) {
        snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, g->path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Rank 0: whether the estimated figures meet the target. */
static int target_met(const mcvar_progress *g) {
    if (!(g->target_rse > 0)) return 0;
    int check = g->target_all_nodes ? g->nnodes : 1;
    for (int i = 0; i < check; i++)
        for (int l = 0; l < g->nlevels; l++) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            if (mcvar_rse(e->var, e->var_se) > g->target_rse ||
                mcvar_rse(e->es, e->es_se) > g->target_rse)
                return 0;
        }
    return 1;
}

/* Rank 0's word after the candidates arrived, in g->msg: [1, 0, lacking...] when a pool
 * lacks values (the ranks send that node's prefix again), else [0, stop, thr...] after
 * estimating and keeping, for the next checkpoint, twice what it will read. */
static void settle(mcvar_progress *g, long long done) {
    long long need = need_at(g, done);
    int lacking = 0;
    for (int i = 0; i < g->nest; i++)
        lacking |= g->lacking[i] = !tail_pool_holds(&g->tail, i, need);
    g->msg[0] = lacking;
    g->msg[1] = 0;
    if (lacking) {
        for (int i = 0; i < g->nest; i++) g->msg[2 + i] = g->lacking[i];
        return;
    }
    long long keep = 2 * need_at(g, mcvar_checkpoint_next(done, g->base, g->cap));
    for (int i = 0; i < g->nest; i++) {
        estimate(g, g->tail.v[i], done, g->est + (size_t)i * g->nlevels);
        tail_pool_keep(&g->tail, i, keep);
        g->msg[2 + i] = g->tail.thr[i];
    }
    g->msg[1] = target_met(g);
}

static void publish(mcvar_progress *g, long long done) {
    char err[512] = "";
    if (append_checkpoint(g, done)) snprintf(err, sizeof err, "out of memory");
    else replace_file(g, err, sizeof err);
    if (err[0] && !g->warned) {
        fprintf(stderr, "mcvar: progress not published: %s (the run goes on)\n", err);
        g->warned = 1;
    }
}

int mcvar_progress_checkpoint(mcvar_progress *g, const double *rows, long long stride,
                              long long held, long long fresh, long long done, int *stop) {
    int me = gio_mpi_rank(), rc = tail_pool_add(&g->tail, rows, stride, held, fresh);
    if (rc == -1) return -1; /* every rank saw it */
    g->done = done;
    for (;;) {
        double t0 = gio_mpi_wtime();
        if (me == 0) {
            if (rc) g->msg[0] = -1; /* rank 0 ran out of memory merging */
            else settle(g, done);
        }
        g->seconds += gio_mpi_wtime() - t0;
        size_t len = sizeof(double) * ((size_t)g->nest + 2);
        if (gio_mpi_bcast(g->msg, len, 0) || g->msg[0] < 0) return -1;
        if (g->msg[0] == 0) break;
        for (int i = 0; i < g->nest; i++) g->lacking[i] = g->msg[2 + i] != 0;
        if (tail_pool_refill(&g->tail, g->lacking, rows, stride, held)) return -1;
    }
    for (int i = 0; i < g->nest; i++) g->tail.thr[i] = g->msg[2 + i];
    *stop = g->msg[1] != 0;
    double t0 = gio_mpi_wtime();
    if (me == 0 && g->path) publish(g, done); /* after the word: the others go on meanwhile */
    g->seconds += gio_mpi_wtime() - t0;
    return 0;
}

mcvar_stopping mcvar_progress_stopping(const mcvar_progress *g) {
    mcvar_stopping s = {g->target_rse, g->cap, g->done, 0, g->target_all_nodes ? g->nnodes : 1,
                        g->est};
    s.reached = 1;
    for (int i = 0; i < s.nodes; i++)
        for (int l = 0; l < g->nlevels; l++) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            if (mcvar_rse(e->var, e->var_se) > g->target_rse ||
                mcvar_rse(e->es, e->es_se) > g->target_rse)
                s.reached = 0;
        }
    return s;
}
