/* mcvar: Monte Carlo / historical Value-at-Risk as an MPI node program.
 *
 * 1. Every rank reads all inputs collectively (gio) and checks them identically.
 * 2. The covariance is estimated (or read) and factored.
 * 3. Scenarios are split into contiguous blocks per rank; each scenario's shocks come from
 *    its own counter-based random stream, and its P&L sums positions in book order.
 * 4. Rank 0 gathers all P&Ls in scenario order and computes VaR, ES, the histogram and the
 *    contributions, so outputs are byte-identical whatever the number of ranks.
 * 0. Rank 0 removes the result files of any earlier run from the output directory, so a
 *    failed run leaves none at all.
 * 5. Outputs are written under temporary names and renamed only when every rank agreed.
 * After each step all ranks agree on failure (CoMD style); the lowest failing rank prints
 * its message and every rank exits with the same status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio_mpi.h"
#include "inputs.h"
#include "market.h"
#include "options.h"
#include "params.h"
#include "positions.h"
#include "pricing.h"
#include "report.h"
#include "risk.h"
#include "scenarios.h"

#define BLOCK 64 /* scenarios revalued together: per-position loops run over a block */

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_OUTPUT = 3 };

typedef struct run {
    mcvar_options o;
    market m;
    book b;
    params p;
    scenario_gen g;
    pricer pr;
    double *pnl_local, *pnl_all, *contrib;
    long long n, lo, hi;
    double t_read, t_value, cpu_value;
} run;

/* Agrees on a step's outcome; only the lowest failing rank prints. */
static int agree(int failed, const char *err) {
    int first = -1, st = gio_mpi_agree(failed, &first);
    if (st && first == gio_mpi_rank()) fprintf(stderr, "mcvar: %s\n", err);
    return st;
}

static int load_inputs(run *r, char *err) {
    const gio_read_options *ro = &r->o.read;
    if (params_read(&r->p, r->o.params, ro, err)) return -1;
    if (market_read_factors(&r->m, r->o.factors, ro, err)) return -1;
    if (r->o.history && market_read_history(&r->m, r->o.history, ro, err)) return -1;
    if (r->o.covariance && market_read_covariance(&r->m, r->o.covariance, ro, err)) return -1;
    return book_read(&r->b, &r->m, r->o.positions, ro, err);
}

static int prepare(run *r, char *err) {
    if (r->p.method == METHOD_HISTORICAL) {
        if (!r->o.history)
            return snprintf(err, MCVAR_ERRLEN, "method historical needs --history"), -1;
        if (r->m.ndates <= r->p.horizon_days)
            return snprintf(err, MCVAR_ERRLEN, "%s: %d dates give no %d-day windows",
                            r->o.history, r->m.ndates, r->p.horizon_days), -1;
    } else {
        if (r->o.history && market_estimate_covariance(&r->m, err)) return -1;
        if (market_cholesky(&r->m, err)) return -1;
    }
    if (scenarios_init(&r->g, &r->m, &r->p) || pricer_init(&r->pr, &r->b, &r->m, r->p.horizon_days))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    r->n = scenarios_count(&r->g);
    int np = gio_mpi_size(), me = gio_mpi_rank();
    r->lo = r->n * me / np;
    r->hi = r->n * (me + 1) / np;
    r->pnl_local = malloc(sizeof(double) * (size_t)(r->hi - r->lo + 1));
    if (me == 0) r->pnl_all = malloc(sizeof(double) * (size_t)r->n);
    if (!r->pnl_local || (me == 0 && !r->pnl_all))
        return snprintf(err, MCVAR_ERRLEN, "out of memory for %lld scenarios", r->n), -1;
    return 0;
}

static int simulate(run *r, char *err) {
    size_t cells = (size_t)r->m.n * BLOCK;
    double *x = malloc(sizeof(double) * cells), *lev = malloc(sizeof(double) * cells);
    if (!x || !lev) {
        free(x);
        free(lev);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    double t0 = gio_mpi_wtime(), c0 = gio_cpu_now();
    for (long long s = r->lo; s < r->hi; s += BLOCK) {
        int cnt = (int)(r->hi - s < BLOCK ? r->hi - s : BLOCK);
        scenarios_fill(&r->g, s, NULL, cnt, BLOCK, x, lev);
        pricer_portfolio_pnl(&r->pr, x, lev, BLOCK, cnt, r->pnl_local + (s - r->lo));
    }
    r->t_value = gio_mpi_wtime() - t0;
    r->cpu_value = gio_cpu_now() - c0;
    free(x);
    free(lev);
    return 0;
}

/* Rank 0: statistics, contributions and the output files (temporary names). */
static int analyse_and_write(run *r, report *rep, char *err) {
    risk_summary rs;
    if (risk_analyse(r->pnl_all, r->n, &r->p, &rs))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    int rc = -1;
    r->contrib = malloc(sizeof(double) * (size_t)r->b.n * (size_t)rs.nlevels);
    if (!r->contrib) {
        snprintf(err, MCVAR_ERRLEN, "out of memory");
        goto err;
    }
    for (int l = 0; l < rs.nlevels; l++)
        if (risk_contributions(&rs, l, &r->g, &r->pr, r->contrib + (size_t)l * r->b.n)) {
            snprintf(err, MCVAR_ERRLEN, "out of memory");
            goto err;
        }
    report_options ro = {r->o.out_dir, r->o.run_id, r->o.compress_output, r->o.block_size};
    rc = report_write(rep, &ro, &rs, r->pnl_all, r->p.histogram_bins, &r->b, r->contrib, err);
err:
    risk_free(&rs);
    return rc;
}

static void print_timings(const run *r, double t_total) {
    double tmax = gio_mpi_max_double(r->t_value), cmax = gio_mpi_max_double(r->cpu_value);
    if (gio_mpi_rank() != 0) return;
    int np = gio_mpi_size();
    double vals = (double)r->n * r->b.n;
    printf("mcvar.ranks: %d\nmcvar.scenarios: %lld\nmcvar.positions: %d\n"
           "mcvar.read_seconds: %.3f\nmcvar.valuation_seconds: %.3f\n"
           "mcvar.valuations_per_sec_per_rank: %.0f\nmcvar.valuation_cpu_seconds: %.3f\n"
           "mcvar.valuations_per_cpu_sec_per_rank: %.0f\nmcvar.total_seconds: %.3f\n",
           np, r->n, r->b.n, r->t_read, tmax, vals / (tmax * np), cmax, vals / (cmax * np),
           t_total);
}

static int execute(run *r) {
    char err[MCVAR_ERRLEN] = "";
    int me = gio_mpi_rank();
    double t0 = gio_mpi_wtime();
    int st = me == 0 && report_clear(r->o.out_dir, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if (agree(load_inputs(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    r->t_read = gio_mpi_wtime() - t0;
    if (agree(prepare(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    if (agree(simulate(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    st = gio_mpi_gather_doubles(r->pnl_local, (size_t)(r->hi - r->lo), r->pnl_all);
    if (st) snprintf(err, sizeof err, "gathering scenario P&L failed");
    if (agree(st ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    report rep = {0};
    st = me == 0 && analyse_and_write(r, &rep, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) {
        report_abandon(&rep);
        return st;
    }
    st = me == 0 && report_commit(&rep, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if (r->o.timings) print_timings(r, gio_mpi_wtime() - t0);
    return EXIT_OK;
}

static void release(run *r) {
    market_free(&r->m);
    book_free(&r->b);
    scenarios_free(&r->g);
    pricer_free(&r->pr);
    free(r->pnl_local);
    free(r->pnl_all);
    free(r->contrib);
}

int main(int argc, char **argv) {
    if (gio_mpi_init(&argc, &argv)) return EXIT_INPUT;
    static run r;
    char err[MCVAR_ERRLEN] = "";
    int status = EXIT_OK, parsed = options_parse(argc, argv, &r.o, err, sizeof err);
    /* Every rank sees the same arguments, so every rank reaches the same verdict. */
    if (parsed == 1) {
        if (gio_mpi_rank() == 0) options_help(stdout);
    } else if (parsed < 0) {
        if (gio_mpi_rank() == 0) fprintf(stderr, "mcvar: %s\n", err);
        status = EXIT_USAGE;
    } else {
        params_default(&r.p);
        market_init(&r.m);
        book_init(&r.b);
        status = execute(&r);
        release(&r);
    }
    gio_mpi_finalize();
    return status;
}
