/* Checkpoints without a gather (rounds.h, tail_pool.h, progress.h) against the statistics of
 * the whole prefix: every rank values its shares of the rounds of synthetic P&L, and at each
 * checkpoint rank 0's estimates must equal risk_analyse on the first `done` scenarios (VaR,
 * ES and VaR's standard error exactly, ES's to 1e-9 relative: summed over the tail only);
 * every rank must get the same stop decision; after the last round each rank must hold
 * exactly the contiguous block of a run without rounds. The P&L kinds include one rising with
 * the scenario index, so the pool runs short and must be rebuilt from the ranks' prefixes,
 * heavy ties and signed zeros. Run under mpirun at several np; the exit code is the number
 * of failures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio_mpi.h"
#include "progress.h"
#include "risk.h"
#include "rounds.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static double value(int kind, int node, long long s) {
    unsigned long long h = (unsigned long long)(s * 31 + node) * 0x9E3779B97F4A7C15ull;
    double u = (double)(h >> 11) / 9007199254740992.0 - 0.5;
    switch (node ? 0 : kind) {
    case 0: return 1000 * u;                          /* distinct */
    case 1: return (double)s - 3 * (s % 5 == 0);      /* rising: new values beyond the pool */
    case 2: return nearbyint(8 * u);                  /* heavy ties */
    default: return s % 7 == 0 ? -0.0 : nearbyint(50 * u) / 4; /* signed zeros among ties */
    }
}

/* Rank 0: the estimates at `done` against risk_analyse on the first done P&Ls. */
static void check_estimates(const mcvar_progress *g, const params *p, int kind, long long done) {
    double *x = malloc(sizeof(double) * (size_t)done);
    for (int i = 0; i < g->nest; i++) {
        for (long long s = 0; s < done; s++) x[s] = value(kind, i, s);
        risk_summary want;
        CHECK(risk_analyse(x, done, p, 1, &want) == 0, "risk_analyse");
        for (int l = 0; l < p->nconfidence; l++) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            const var_level *v = &want.level[l];
            /* == rather than bits: the pool keeps -0.0 as +0.0 (printed alike) */
            CHECK(e->var == v->var && e->es == v->es && e->var_se == v->var_se &&
                  fabs(e->es_se - v->es_se) <= 1e-9 * fabs(v->es_se),
                  "kind %d node %d level %d at %lld: %.17g %.17g %.17g %.17g vs %.17g %.17g %.17g %.17g",
                  kind, i, l, done, e->var, e->es, e->var_se, e->es_se, v->var, v->es, v->var_se,
                  v->es_se);
        }
        risk_free(&want);
    }
    free(x);
}

static void run(int kind, long long base, long long cap, double target) {
    enum { N = 3 };
    params p;
    params_default(&p);
    p.nconfidence = 3;
    p.confidence[0] = 0.95;
    p.confidence[1] = 0.99;
    p.confidence[2] = 0.975;
    p.checkpoint_scenarios = base;
    p.target_rse = target;
    p.target_all_nodes = 1;
    char *names[N] = {"TOP", "TOP/A", "TOP/B"};
    int np = gio_mpi_size(), me = gio_mpi_rank(), stop = 0;
    mcvar_rounds rd;
    mcvar_progress g;
    CHECK(mcvar_rounds_plan(&rd, base, cap, np, me) == 0, "plan");
    CHECK(mcvar_progress_init(&g, NULL, &p, cap, N, names) == 0, "init");
    double *rows = malloc(sizeof(double) * N * (size_t)rd.capacity);
    long long held = 0, done = 0;
    while (!stop && rd.valued < rd.nrounds) {
        long long from, to;
        mcvar_rounds_share(&rd, rd.valued, me, &from, &to);
        for (int i = 0; i < N; i++)
            for (long long s = from; s < to; s++) rows[i * rd.capacity + held + s - from] = value(kind, i, s);
        held += to - from;
        done = rd.end[rd.valued++];
        CHECK(mcvar_progress_checkpoint(&g, rows, rd.capacity, held, to - from, done, &stop) == 0,
              "checkpoint");
        if (me == 0) check_estimates(&g, &p, kind, done);
        int64_t all_stop = stop;
        CHECK(gio_mpi_max_i64(all_stop) == stop, "ranks disagree on stopping at %lld", done);
    }
    if (me == 0 && kind == 1 && rd.valued > 8) /* a few rounds and the pool runs short */
        CHECK(g.tail.refills > 0, "the rising P&L never made the pool run short (%d rounds)", rd.valued);
    if (me == 0 && kind != 1 && rd.valued > 8) /* drawn P&L: the kept pool always suffices */
        CHECK(g.tail.refills == 0, "kind %d: %lld refills", kind, g.tail.refills);
    if (target > 0 && kind == 0) CHECK(done < cap, "the target run did not stop early");
    long long lo, hi;
    CHECK(mcvar_rounds_redistribute(&rd, rows, N, &lo, &hi) == 0, "redistribute");
    CHECK(lo == done * me / np && hi == done * (me + 1) / np, "block [%lld, %lld)", lo, hi);
    for (int i = 0; i < N; i++)
        for (long long s = lo; s < hi; s++)
            if (!same(rows[i * (hi - lo) + s - lo], value(kind, i, s))) {
                CHECK(0, "kind %d node %d scenario %lld after the move", kind, i, s);
                break;
            }
    free(rows);
    mcvar_progress_free(&g);
    mcvar_rounds_free(&rd);
}

int main(int argc, char **argv) {
    if (gio_mpi_init(&argc, &argv)) return 1;
    for (int kind = 0; kind < 4; kind++) {
        run(kind, 7, 3000, 0);      /* many small rounds, to the cap */
        run(kind, 100, 20000, 0);
        run(kind, 50, 20000, 0.01); /* kinds 0 and 2 stop at a checkpoint before the cap */
        run(kind, 5000, 3, 0);      /* one round smaller than np */
    }
    int bad = gio_mpi_max_i64(failures) != 0;
    if (gio_mpi_rank() == 0) printf(bad ? "checkpoints differ\n" : "checkpoints exact at np=%d\n", gio_mpi_size());
    gio_mpi_finalize();
    return bad;
}
