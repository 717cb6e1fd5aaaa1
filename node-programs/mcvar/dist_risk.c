/* dist_risk.c: order statistics and sums of P&L spread over the ranks (dist_risk.h). */
#include "dist_risk.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gio_mpi.h"

#define DIGIT 16               /* bits decided per selection round */
#define BUCKETS (1 << DIGIT)

/* A double's bit pattern turned into an unsigned key with the same order as the values
 * (sign-magnitude to offset binary; Knuth, TAOCP vol. 3, 5.2.5; also Herf's "radix tricks").
 * -0.0 and +0.0 get one key: the sort treats them as equal and orders them by index. */
static uint64_t key_of(double x) {
    if (x == 0) x = 0.0;
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

/* Runs fn over this rank's scenarios after every earlier rank's, carrying the accumulators
 * acc[0..cnt) from rank to rank: each accumulator sees its terms in scenario order, exactly
 * as one loop over all scenarios would. Every rank ends with the final values. */
typedef void (*chain_fn)(double *acc, const dist_pnl *d, const void *ctx);
static int chain(double *acc, size_t cnt, chain_fn fn, const dist_pnl *d, const void *ctx) {
    int me = gio_mpi_rank(), np = gio_mpi_size();
    size_t len = sizeof(double) * cnt;
    if (me == 0) memset(acc, 0, len);
    else if (gio_mpi_recv(acc, len, me - 1)) return -1;
    fn(acc, d, ctx);
    if (me < np - 1 && gio_mpi_send(acc, len, me + 1)) return -1;
    return gio_mpi_bcast(acc, len, np - 1) ? -1 : 0;
}

static const double *node_pnl(const dist_pnl *d, int i) {
    return d->local + (size_t)i * (size_t)d->nloc;
}

static void add_sum(double *acc, const dist_pnl *d, const void *ctx) {
    (void)ctx;
    for (int i = 0; i < d->nnodes; i++) {
        const double *x = node_pnl(d, i);
        double s = acc[i];
        for (long long j = 0; j < d->nloc; j++) s += x[j];
        acc[i] = s;
    }
}

static void add_squares(double *acc, const dist_pnl *d, const void *ctx) {
    const double *mean = ctx;
    for (int i = 0; i < d->nnodes; i++) {
        const double *x = node_pnl(d, i);
        double s = acc[i], m = mean[i];
        for (long long j = 0; j < d->nloc; j++) s += (x[j] - m) * (x[j] - m);
        acc[i] = s;
    }
}

/* Chen's sums, one accumulator per node and level: of the excess over VaR, then (ctx->mean
 * set) of its squared deviations. */
typedef struct excess_ctx {
    const var_level *lv; /* nnodes x nlevels, var set */
    const double *mean;  /* NULL in the first pass */
    int nlevels;
} excess_ctx;

static void add_excess(double *acc, const dist_pnl *d, const void *ctx) {
    const excess_ctx *c = ctx;
    for (int i = 0; i < d->nnodes; i++) {
        const double *x = node_pnl(d, i);
        for (int l = 0; l < c->nlevels; l++) {
            size_t a = (size_t)i * c->nlevels + l;
            const var_level *v = &c->lv[a];
            double s = acc[a];
            if (!c->mean) {
                for (long long j = 0; j < d->nloc; j++) s += risk_es_excess(v, x[j]);
            } else {
                double m = c->mean[a];
                for (long long j = 0; j < d->nloc; j++) {
                    double e = risk_es_excess(v, x[j]) - m;
                    s += e * e;
                }
            }
            acc[a] = s;
        }
    }
}

/* The key of the need-th smallest P&L of node i over all ranks, how many P&Ls lie below it,
 * and this rank's first index among the ties at it that the selection takes. */
typedef struct cut {
    uint64_t key;
    long long below, take;
} cut;

static int select_cut(const dist_pnl *d, int i, long long need, int64_t *cnt, cut *c) {
    const double *x = node_pnl(d, i);
    uint64_t prefix = 0;
    long long below = 0;
    for (int bits = 0; bits < 64; bits += DIGIT) {
        int shift = 64 - DIGIT - bits;
        memset(cnt, 0, sizeof(int64_t) * BUCKETS);
        for (long long j = 0; j < d->nloc; j++) {
            uint64_t k = key_of(x[j]);
            if (bits == 0 || k >> (64 - bits) == prefix) cnt[(k >> shift) & (BUCKETS - 1)]++;
        }
        if (gio_mpi_sum_i64s(cnt, BUCKETS)) return -1;
        int b = 0;
        while (b < BUCKETS - 1 && below + cnt[b] < need) below += cnt[b++];
        prefix = prefix << DIGIT | (uint64_t)b;
    }
    /* Ties at the cut are taken in scenario order: ranks hold ascending ranges. */
    long long mine = 0;
    for (long long j = 0; j < d->nloc; j++) mine += key_of(x[j]) == prefix;
    int np = gio_mpi_size(), me = gio_mpi_rank();
    int64_t *all = malloc(sizeof(int64_t) * (size_t)np);
    if (!all || gio_mpi_allgather_i64(mine, all)) return free(all), -1;
    long long before = 0;
    for (int q = 0; q < me; q++) before += all[q];
    free(all);
    long long take = need - below - before;
    c->key = prefix;
    c->below = below;
    c->take = take < 0 ? 0 : take > mine ? mine : take;
    return 0;
}

/* Records: P&L, scenario index, then (rows) every node's P&L at that scenario. */
static int by_value_then_index(const void *a, const void *b) {
    const double *x = a, *y = b;
    if (x[0] < y[0]) return -1;
    if (x[0] > y[0]) return 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* This rank's share of node i's tail as sorted records of `width` doubles. */
static double *local_tail(const dist_pnl *d, int i, const cut *c, int width, long long *count) {
    const double *x = node_pnl(d, i);
    long long got = 0, ties = 0;
    for (long long j = 0; j < d->nloc; j++) {
        uint64_t k = key_of(x[j]);
        got += k < c->key || (k == c->key && ties++ < c->take);
    }
    double *rec = malloc(sizeof(double) * (size_t)width * (size_t)(got ? got : 1));
    if (!rec) return NULL;
    long long at = 0;
    ties = 0;
    for (long long j = 0; j < d->nloc; j++) {
        uint64_t k = key_of(x[j]);
        if (!(k < c->key || (k == c->key && ties++ < c->take))) continue;
        double *r = rec + (size_t)at++ * width;
        r[0] = x[j];
        r[1] = (double)(d->lo + j); /* exact: scenario counts stay far below 2^53 */
        for (int n = 2; n < width; n++) r[n] = node_pnl(d, n - 2)[j];
    }
    qsort(rec, (size_t)got, sizeof(double) * (size_t)width, by_value_then_index);
    *count = got;
    return rec;
}

/* Rank 0 merges every rank's sorted share of the tail into order, sorted values and rows. */
static int merge_tail(const dist_pnl *d, double *rec, long long mine, int width, long long need,
                      int with_rows, risk_summary *rs, double *sorted) {
    int np = gio_mpi_size(), me = gio_mpi_rank();
    int64_t *cnt = malloc(sizeof(int64_t) * (size_t)np);
    if (!cnt || gio_mpi_allgather_i64(mine, cnt)) return free(cnt), -1;
    double *all = NULL;
    long long *at = NULL, *end = NULL;
    int rc = 0;
    if (me == 0) {
        all = malloc(sizeof(double) * (size_t)width * (size_t)need);
        at = malloc(sizeof(long long) * (size_t)np);
        end = malloc(sizeof(long long) * (size_t)np);
        rs->order = malloc(sizeof(long long) * (size_t)need);
        if (with_rows) rs->rows = malloc(sizeof(double) * (size_t)d->nnodes * (size_t)need);
        rc = !all || !at || !end || !rs->order || (with_rows && !rs->rows) ? -1 : 0;
    }
    if ((rc = gio_mpi_agree(rc, NULL))) goto out;
    if (me != 0) {
        if (mine) rc = gio_mpi_send(rec, sizeof(double) * (size_t)width * (size_t)mine, 0);
        goto out;
    }
    long long off = 0;
    for (int q = 0; q < np; q++) {
        at[q] = off;
        end[q] = off += cnt[q];
        if (!cnt[q]) continue;
        size_t len = sizeof(double) * (size_t)width * (size_t)cnt[q];
        if (q == 0) memcpy(all, rec, len);
        else if (gio_mpi_recv(all + (size_t)at[q] * width, len, q)) rc = -1;
    }
    for (long long r = 0; !rc && r < need; r++) {
        int best = -1;
        for (int q = 0; q < np; q++)
            if (at[q] < end[q] && (best < 0 || by_value_then_index(all + (size_t)at[q] * width,
                                                                   all + (size_t)at[best] * width) < 0))
                best = q;
        const double *x = all + (size_t)at[best]++ * width;
        sorted[r] = x[0];
        rs->order[r] = (long long)x[1];
        if (with_rows) memcpy(rs->rows + (size_t)r * d->nnodes, x + 2, sizeof(double) * (size_t)d->nnodes);
    }
out:
    free(all);
    free(at);
    free(end);
    free(cnt);
    return rc;
}

int dist_risk_analyse(const dist_pnl *d, const params *p, int with_stderr, int bins,
                      const char *with_rows, risk_summary *rs) {
    int N = d->nnodes, nl = p->nconfidence, me = gio_mpi_rank();
    long long n = d->n, need = risk_tail_ranks(n, p, with_stderr);
    size_t cells = (size_t)N * (size_t)nl;
    double *sum = malloc(sizeof(double) * N), *mean = malloc(sizeof(double) * N);
    double *ss = malloc(sizeof(double) * N), *lo = malloc(sizeof(double) * N);
    double *hi = malloc(sizeof(double) * N), *sorted = NULL;
    double *ex = malloc(sizeof(double) * cells), *exm = malloc(sizeof(double) * cells);
    var_level *lv = calloc(cells, sizeof *lv);
    int64_t *cnt = malloc(sizeof(int64_t) * (size_t)(BUCKETS > bins ? BUCKETS : bins));
    int rc = !sum || !mean || !ss || !lo || !hi || !ex || !exm || !lv || !cnt ? -1 : 0;
    if (gio_mpi_agree(rc, NULL)) goto out;
    memset(rs, 0, sizeof *rs * (size_t)N);
    /* mean and standard deviation: two chains, as risk_analyse's two loops */
    if ((rc = chain(sum, (size_t)N, add_sum, d, NULL))) goto out;
    for (int i = 0; i < N; i++) mean[i] = sum[i] / (double)n;
    if ((rc = chain(ss, (size_t)N, add_squares, d, mean))) goto out;
    /* histograms over [min, max] */
    for (int i = 0; i < N; i++) {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
        const double *x = node_pnl(d, i);
        for (long long j = 0; j < d->nloc; j++) {
            lo[i] = fmin(lo[i], x[j]);
            hi[i] = fmax(hi[i], x[j]);
        }
    }
    if ((rc = gio_mpi_min_doubles(lo, (size_t)N) || gio_mpi_max_doubles(hi, (size_t)N) ? -1 : 0))
        goto out;
    for (int i = 0; i < N; i++) {
        double w = (hi[i] - lo[i]) / bins;
        const double *x = node_pnl(d, i);
        memset(cnt, 0, sizeof(int64_t) * (size_t)bins);
        for (long long j = 0; j < d->nloc; j++) { /* risk_histogram's rule */
            long long b = w > 0 ? (long long)((x[j] - lo[i]) / w) : 0;
            cnt[b < 0 ? 0 : b >= bins ? bins - 1 : b]++;
        }
        if ((rc = gio_mpi_sum_i64s(cnt, (size_t)bins))) goto out;
        if (me == 0) {
            risk_summary *r = &rs[i];
            r->n = n;
            r->mean = mean[i];
            r->stddev = n > 1 ? sqrt(ss[i] / (double)(n - 1)) : 0;
            r->max = hi[i];
            r->hist_width = w;
            r->hist = malloc(sizeof(long long) * (size_t)bins);
            if (r->hist)
                for (int b = 0; b < bins; b++) r->hist[b] = cnt[b];
            else rc = -1;
        }
        if ((rc = gio_mpi_agree(rc, NULL))) goto out;
    }
    /* the tails, node by node */
    int width = 2 + N;
    for (int i = 0; i < N; i++) {
        cut c;
        long long mine = 0;
        double *rec = NULL;
        rc = select_cut(d, i, need, cnt, &c);
        if (!rc && me == 0 && !(sorted = rs[i].tail = malloc(sizeof(double) * (size_t)need))) rc = -1;
        if (!rc && !(rec = local_tail(d, i, &c, width, &mine))) rc = -1;
        if ((rc = gio_mpi_agree(rc, NULL))) { free(rec); goto out; }
        rc = merge_tail(d, rec, mine, width, need, with_rows && with_rows[i], &rs[i], sorted);
        free(rec);
        if ((rc = gio_mpi_agree(rc, NULL))) goto out;
        if (me == 0) {
            risk_summary *r = &rs[i];
            r->ntail = need;
            r->min = sorted[0];
            risk_levels(r, p, with_stderr, sorted);
            for (int l = 0; l < nl; l++) lv[(size_t)i * nl + l] = r->level[l];
        }
    }
    if (!with_stderr) goto out;
    /* Chen's ES standard errors: every rank needs every level's VaR */
    if ((rc = gio_mpi_bcast(lv, sizeof *lv * cells, 0))) goto out;
    excess_ctx e = {lv, NULL, nl};
    if ((rc = chain(ex, cells, add_excess, d, &e))) goto out;
    for (size_t a = 0; a < cells; a++) exm[a] = ex[a] / (double)n;
    e.mean = exm;
    if ((rc = chain(ex, cells, add_excess, d, &e))) goto out;
    if (me == 0)
        for (int i = 0; i < N; i++)
            for (int l = 0; l < nl; l++)
                rs[i].level[l].es_se = risk_es_stderr(&rs[i].level[l], n, ex[(size_t)i * nl + l]);
out:
    free(sum); free(mean); free(ss); free(lo); free(hi);
    free(ex); free(exm); free(lv); free(cnt);
    return rc ? -1 : 0;
}
