/* dist_risk against risk_analyse: every rank holds a contiguous slice of the same P&L vectors
 * (ties, -0.0 and +0.0 among them); rank 0 compares every statistic of the distributed
 * analysis bit for bit with risk_analyse (and risk_histogram) on the whole vector. Run under
 * mpirun at several np; the exit code is the number of failures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_risk.h"
#include "gio_mpi.h"
#include "risk.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Deterministic P&L: a smooth part, rounded so that values repeat, and signed zeros. */
static double value(int kind, long long i) {
    unsigned long long h = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
    double u = (double)(h >> 11) / 9007199254740992.0 - 0.5;
    switch (kind) {
    case 0: return 1000 * u;                        /* distinct */
    case 1: return nearbyint(8 * u);                /* heavy ties */
    case 2: return i % 3 == 0 ? -0.0 : i % 3 == 1 ? 0.0 : 0.0 * u; /* all zero */
    default: return i % 7 == 0 ? -0.0 : nearbyint(50 * u) / 4;
    }
}

static void compare(long long n, int kind, int with_stderr) {
    const int N = 2, bins = 7;
    params p;
    params_default(&p);
    p.nconfidence = 4;
    p.confidence[0] = 0.95;
    p.confidence[1] = 0.99;
    p.confidence[2] = 0.975;
    p.confidence[3] = 0.5;
    int np = gio_mpi_size(), me = gio_mpi_rank();
    long long lo = n * me / np, hi = n * (me + 1) / np, nloc = hi - lo;
    double *all = malloc(sizeof(double) * N * (size_t)n);
    double *local = malloc(sizeof(double) * N * (size_t)(nloc ? nloc : 1));
    for (int i = 0; i < N; i++)
        for (long long s = 0; s < n; s++) all[i * n + s] = value(i ? 3 : kind, s) + (i ? 0 : 0.0);
    for (int i = 0; i < N; i++)
        memcpy(local + i * nloc, all + i * n + lo, sizeof(double) * (size_t)nloc);
    dist_pnl d = {local, nloc, lo, n, N};
    risk_summary rs[2];
    const char rows[2] = {1, 0};
    CHECK(dist_risk_analyse(&d, &p, with_stderr, bins, rows, rs) == 0, "dist_risk_analyse");
    if (me == 0) {
        for (int i = 0; i < N; i++) {
            risk_summary want;
            const double *x = all + i * n;
            CHECK(risk_analyse(x, n, &p, with_stderr, &want) == 0, "risk_analyse");
            const risk_summary *got = &rs[i];
            const char *what = "n=%lld kind=%d stderr=%d node=%d: %s";
            CHECK(got->n == n && same(got->mean, want.mean) && same(got->stddev, want.stddev),
                  what, n, kind, with_stderr, i, "mean/stddev");
            CHECK(same(got->min, want.min), what, n, kind, with_stderr, i, "min");
            for (int l = 0; l < p.nconfidence; l++) {
                const var_level *a = &got->level[l], *b = &want.level[l];
                CHECK(same(a->var, b->var) && same(a->es, b->es) && same(a->var_se, b->var_se) &&
                      same(a->es_se, b->es_se) && same(a->win_mean, b->win_mean) &&
                      a->k == b->k && a->win_from == b->win_from && a->win_to == b->win_to,
                      what, n, kind, with_stderr, i, "a level");
            }
            long long R = risk_tail_ranks(n, &p, with_stderr);
            CHECK(got->ntail == R, what, n, kind, with_stderr, i, "ntail");
            for (long long r = 0; r < R; r++) {
                if (got->order[r] != want.order[r] || !same(got->tail[r], x[want.order[r]])) {
                    CHECK(0, what, n, kind, with_stderr, i, "tail order");
                    break;
                }
                if (i == 0 && !same(got->rows[r * N + 1], all[n + want.order[r]])) {
                    CHECK(0, what, n, kind, with_stderr, i, "tail rows");
                    break;
                }
            }
            long long h[7];
            double w;
            risk_histogram(x, n, &want, bins, h, &w);
            CHECK(memcmp(h, got->hist, sizeof h) == 0 && w == got->hist_width, what, n, kind,
                  with_stderr, i, "histogram");
            risk_free(&want);
        }
    }
    for (int i = 0; i < N; i++) risk_free(&rs[i]);
    free(all);
    free(local);
}

int main(int argc, char **argv) {
    if (gio_mpi_init(&argc, &argv)) return 1;
    long long sizes[] = {1, 40, 20000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int kind = 0; kind < 4; kind++)
            for (int se = 0; se < 2; se++) compare(sizes[s], kind, se);
    int bad = gio_mpi_max_i64(failures) != 0;
    if (gio_mpi_rank() == 0) printf(bad ? "dist_risk differs\n" : "dist_risk identical at np=%d\n", gio_mpi_size());
    gio_mpi_finalize();
    return bad;
}
