/* mcvar: Monte Carlo / historical Value-at-Risk of a node hierarchy as an MPI node program.
 *
 * 1. Every rank reads all inputs collectively (gio), checks them identically and puts
 *    factors and positions in canonical order (so row order never matters).
 * 2. The covariance is estimated (or read) and factored.
 * 3. Scenarios are split into contiguous blocks per rank; each factor's shocks come from its
 *    own counter-based random stream (keyed by its id), and every node's P&L sums its
 *    positions in canonical order.
 * 4. Every node's P&L stays on the rank that valued it: VaR, ES, their standard errors and
 *    the histograms come from a distributed selection of the tail and sums carried along
 *    the ranks in scenario order (dist_risk.h), node_pnl.csv.gz is written by every rank
 *    (pnl_writer.h), and the contributions come from the tail scenarios alone, regenerated
 *    by every rank for its share of the positions and gathered on rank 0, so outputs are
 *    byte-identical whatever the number of ranks. With --progress or
 *    target_rse the scenarios are valued in rounds ending at checkpoints (rounds.h), and
 *    once the run stops every rank gets the contiguous block a run without them has.
 * 0. Rank 0 removes the result files of any earlier run from the output directory, so a
 *    failed run leaves none at all.
 * 5. Outputs are written under temporary names and renamed only when every rank agreed.
 * After each step all ranks agree on failure (CoMD style); the lowest failing rank prints
 * its message and every rank exits with the same status.
 * --what-if: rank 0 reads the base run's node P&L back and revalues only the new trades. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "aggregate.h"
#include "gio_mpi.h"
#include "inputs.h"
#include "market.h"
#include "dist_risk.h"
#include "options.h"
#include "params.h"
#include "positions.h"
#include "pnl_writer.h"
#include "pricing.h"
#include "progress.h"
#include "quality.h"
#include "report.h"
#include "risk.h"
#include "rounds.h"
#include "scenario_file.h"
#include "scenarios.h"
#include "whatif.h"

#define BLOCK 64 /* scenarios revalued together: per-position loops run over a block */

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_OUTPUT = 3 };

typedef struct run {
    mcvar_options o;
    market m;
    book b;
    params p;
    scenario_gen g;
    pricer pr;
    quality q;
    double *pnl_local; /* node-major: nodes x local scenarios (in rounds: rows of
                        * rounds.capacity until the run stops) */
    risk_summary *rs;
    double *own_var, *own_es, *top_var, *top_es, *child_var, *child_es;
    long long n, lo, hi;
    char stress_from[11], stress_to[11];
    double t_read, t_value, cpu_value, t_progress, t_regroup, t_stats, t_pnl, t_contrib, t_rank0;
    mcvar_progress pg; /* with --progress or a target */
    int progress;      /* valued in rounds that end at checkpoints */
    mcvar_rounds rounds;
    mcvar_stopping stop;
    double *sx;   /* --scenarios-in: every scenario's returns, factor-major (sx_n a factor) */
    long long sx_n;
} run;

/* Agrees on a step's outcome; only the lowest failing rank prints. */
static int agree(int failed, const char *err) {
    int first = -1, st = gio_mpi_agree(failed, &first);
    if (st && first == gio_mpi_rank()) fprintf(stderr, "mcvar: %s\n", err);
    return st;
}

static int load_market(run *r, char *err) {
    const gio_read_options *ro = &r->o.read;
    if (params_read(&r->p, r->o.params, ro, err)) return -1;
    if (market_read_factors(&r->m, r->o.factors, ro, err)) return -1;
    if (r->o.history) {
        if (market_read_history(&r->m, r->o.history, ro, err)) return -1;
        const char *last = r->m.dates[r->m.ndates - 1];
        if (r->p.business_date[0] && strcmp(last, r->p.business_date) != 0)
            return snprintf(err, MCVAR_ERRLEN, "%s: the history ends at %s, not at the "
                            "business_date %s", r->o.history, last, r->p.business_date), -1;
        if (quality_check(&r->q, &r->m, &r->p, r->o.factors, r->o.history, err)) return -1;
        if (!r->p.stress_from[0] && !r->p.stress_window_days) market_lookback(&r->m, r->p.lookback_days);
    }
    if (r->o.covariance && market_read_covariance(&r->m, r->o.covariance, ro, err)) return -1;
    return 0;
}

static int load_inputs(run *r, char *err) {
    if (load_market(r, err)) return -1;
    return book_read(&r->b, &r->m, r->p.base_currency, r->o.positions, &r->o.read, err);
}

/* The stress window [stress_from, stress_to] of the history: its first date and count. */
static int stress_window(run *r, char *err) {
    const market *m = &r->m;
    int from = -1, to = -1;
    for (int d = 0; d < m->ndates; d++) {
        if (from < 0 && strcmp(m->dates[d], r->p.stress_from) >= 0) from = d;
        if (strcmp(m->dates[d], r->p.stress_to) <= 0) to = d;
    }
    if (from < 0 || to - from + 1 <= r->p.horizon_days + 1)
        return snprintf(err, MCVAR_ERRLEN, "%s: the stress window %s..%s holds too few dates "
                        "of the history", r->o.history, r->p.stress_from, r->p.stress_to), -1;
    r->g.first_date = from;
    r->g.ndates = to - from + 1;
    memcpy(r->stress_from, m->dates[from], 11);
    memcpy(r->stress_to, m->dates[to], 11);
    return 0;
}

/* The scenario generator: method, stress window, covariance and its factor. */
static int prepare_scenarios(run *r, char *err) {
    if (scenarios_init(&r->g, &r->m, &r->p))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    if (r->p.stress_from[0] || r->p.stress_window_days) {
        if (!r->o.history)
            return snprintf(err, MCVAR_ERRLEN, "stressed VaR needs --history"), -1;
        if (r->p.method != METHOD_HISTORICAL)
            return snprintf(err, MCVAR_ERRLEN, "stressed VaR is computed by method historical "
                            "(the book replayed on the stress window)"), -1;
        if (r->p.stress_from[0] && stress_window(r, err)) return -1;
    }
    if (r->p.method == METHOD_HISTORICAL) {
        if (!r->o.history)
            return snprintf(err, MCVAR_ERRLEN, "method historical needs --history"), -1;
        if (r->g.ndates <= r->p.horizon_days)
            return snprintf(err, MCVAR_ERRLEN, "%s: %d dates give no %d-day windows",
                            r->o.history, r->g.ndates, r->p.horizon_days), -1;
    } else {
        if (r->o.history && r->m.ndates < 3)
            return snprintf(err, MCVAR_ERRLEN, "%s: too few dates", r->o.history), -1;
        if (r->o.history && market_estimate_covariance(&r->m, r->p.ewma_lambda, err)) return -1;
        if (market_cholesky(&r->m, err)) return -1;
    }
    if ((r->o.scenarios_out || r->o.scenarios_in) && (r->p.stress_window_days || r->p.target_rse > 0))
        return snprintf(err, MCVAR_ERRLEN, "a run in stages (--scenarios-out, --scenarios-in) "
                        "cannot search a stress window nor stop at target_rse: each part would "
                        "search or stop alone"), -1;
    return 0;
}

static int prepare(run *r, char *err) {
    if (prepare_scenarios(r, err)) return -1;
    if (pricer_init(&r->pr, &r->b, &r->m, r->p.horizon_days))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    r->n = scenarios_count(&r->g);
    if (r->o.scenarios_in && !r->sx) {
        if (scenario_file_read(&r->m, r->n, r->o.scenarios_in, &r->o.read, &r->sx, err)) return -1;
        r->sx_n = r->n;
    }
    int np = gio_mpi_size(), me = gio_mpi_rank();
    r->lo = r->n * me / np;
    r->hi = r->n * (me + 1) / np;
    if (r->o.target_rse > 0) r->p.target_rse = r->o.target_rse;
    if (r->p.target_rse > 0 && r->p.method == METHOD_HISTORICAL)
        return snprintf(err, MCVAR_ERRLEN, "target_rse needs a Monte Carlo method (a historical "
                        "run has a fixed set of scenarios)"), -1;
    r->progress = r->p.method != METHOD_HISTORICAL && (r->o.progress || r->p.target_rse > 0);
    if (r->progress &&
        (mcvar_progress_init(&r->pg, r->o.progress, &r->p, r->n, r->b.nnodes, r->b.node_path) ||
         mcvar_rounds_plan(&r->rounds, r->p.checkpoint_scenarios, r->n, np, me)))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    size_t nodes = (size_t)r->b.nnodes;
    long long row = r->progress ? r->rounds.capacity : r->hi - r->lo + 1;
    free(r->pnl_local);
    r->pnl_local = malloc(sizeof(double) * nodes * (size_t)row);
    if (!r->pnl_local) return snprintf(err, MCVAR_ERRLEN, "out of memory for %lld scenarios", r->n), -1;
    return 0;
}

/* Scratch for a block of scenarios: returns, levels, fx conversions, node P&L. */
typedef struct block_buf {
    double *x, *lev, *fx, *node;
} block_buf;

static int block_alloc(block_buf *k, const market *m, const book *b) {
    k->x = malloc(sizeof(double) * (size_t)m->n * BLOCK);
    k->lev = malloc(sizeof(double) * (size_t)m->n * BLOCK);
    k->fx = malloc(sizeof(double) * (size_t)b->nccy * BLOCK);
    k->node = malloc(sizeof(double) * (size_t)b->nnodes * BLOCK);
    return k->x && k->lev && k->fx && k->node ? 0 : -1;
}

static void block_free(block_buf *k) {
    free(k->x);
    free(k->lev);
    free(k->fx);
    free(k->node);
}

static void block_fill(run *r, block_buf *k, long long first, const long long *idx, int cnt) {
    if (r->sx) { /* --scenarios-in: the returns as generated, then the same levels */
        for (int f = 0; f < r->m.n; f++) {
            const double *col = r->sx + (size_t)f * (size_t)r->sx_n;
            for (int b = 0; b < cnt; b++) k->x[(size_t)f * BLOCK + (size_t)b] = col[idx ? idx[b] : first + b];
        }
        scenarios_levels(&r->m, k->x, cnt, BLOCK, k->lev);
    } else {
        scenarios_fill(&r->g, first, idx, cnt, BLOCK, k->x, k->lev);
    }
    pricer_fx(&r->pr, k->lev, BLOCK, cnt, k->fx);
}

/* Values the scenarios [lo, hi) into rows (node-major, row length `stride`) from column at. */
static void simulate_range(run *r, block_buf *k, long long lo, long long hi, double *rows,
                           long long stride, long long at) {
    double t0 = gio_mpi_wtime(), c0 = gio_cpu_now();
    for (long long s = lo; s < hi; s += BLOCK) {
        int cnt = (int)(hi - s < BLOCK ? hi - s : BLOCK);
        block_fill(r, k, s, NULL, cnt);
        pricer_node_pnl(&r->pr, k->x, k->lev, k->fx, BLOCK, cnt, k->node);
        book_roll_up(&r->b, k->node, BLOCK, cnt);
        for (int i = 0; i < r->b.nnodes; i++)
            memcpy(rows + (size_t)i * (size_t)stride + (size_t)(at + s - lo),
                   k->node + (size_t)i * BLOCK, sizeof(double) * (size_t)cnt);
    }
    r->t_value += gio_mpi_wtime() - t0;
    r->cpu_value += gio_cpu_now() - c0;
}

/* This rank's contiguous share [lo, hi) of all n scenarios. */
static int simulate(run *r, char *err) {
    int np = gio_mpi_size(), me = gio_mpi_rank();
    r->lo = r->n * me / np;
    r->hi = r->n * (me + 1) / np;
    r->t_value = r->cpu_value = 0;
    block_buf k;
    int rc = block_alloc(&k, &r->m, &r->b);
    if (!rc) simulate_range(r, &k, r->lo, r->hi, r->pnl_local, r->hi - r->lo, 0);
    block_free(&k);
    return rc ? (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1) : 0;
}

/* Where the P&L lies: every rank's own contiguous block of scenarios. */
static dist_pnl pnl_view(const run *r) {
    dist_pnl d = {r->pnl_local, r->hi - r->lo, r->lo, r->n, r->b.nnodes};
    return d;
}

/* Monte Carlo with --progress or target_rse: rounds that end at the checkpoints (rounds.h);
 * after each, the ranks estimate (rank 0 publishes) and learn whether the target is met, so
 * every rank stops at the same checkpoint. Then the P&L of the `done` scenarios valued
 * moves to the contiguous blocks of a run of `done` scenarios without rounds. */
static int simulate_with_checkpoints(run *r, char *err) {
    mcvar_rounds *rd = &r->rounds;
    int stop = 0, me = gio_mpi_rank();
    long long held = 0;
    r->t_value = r->cpu_value = 0;
    block_buf k;
    int rc = block_alloc(&k, &r->m, &r->b);
    if (gio_mpi_agree(rc, NULL)) {
        block_free(&k);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    while (!stop && rd->valued < rd->nrounds) {
        long long from, to;
        mcvar_rounds_share(rd, rd->valued, me, &from, &to);
        simulate_range(r, &k, from, to, r->pnl_local, rd->capacity, held);
        held += to - from;
        long long done = rd->end[rd->valued++];
        if ((rc = mcvar_progress_checkpoint(&r->pg, r->pnl_local, rd->capacity, held, to - from,
                                            done, &stop)))
            break;
    }
    block_free(&k);
    r->t_progress = r->pg.seconds + r->pg.tail.seconds;
    if (rc) return snprintf(err, MCVAR_ERRLEN, "checkpoint failed (out of memory, or a transfer)"), -1;
    double t0 = gio_mpi_wtime();
    if (mcvar_rounds_redistribute(rd, r->pnl_local, r->b.nnodes, &r->lo, &r->hi))
        return snprintf(err, MCVAR_ERRLEN, "moving the scenario P&L to its ranks failed"), -1;
    r->t_regroup = gio_mpi_wtime() - t0;
    r->n = rd->end[rd->valued - 1];
    if (me == 0 && r->pg.target_rse > 0) r->stop = mcvar_progress_stopping(&r->pg);
    return 0;
}

/* The window of stress_window_days dates whose historical VaR of the top node at the highest
 * confidence is largest (ties: the earliest); its scenarios are those lying wholly inside it.
 * Rank 0 searches, then every rank learns the window. */
static int search_stress_window(run *r, char *err) {
    int L = r->p.stress_window_days, h = r->p.horizon_days, first = 0;
    if (L > r->m.ndates || L - h < 1)
        return snprintf(err, MCVAR_ERRLEN, "stress_window_days %d does not fit the %d dates of "
                        "the history with horizon %d", L, r->m.ndates, h), -1;
    /* a history's dates: few enough to gather the top node's P&L (node 0, the first row) */
    double *top = gio_mpi_rank() == 0 ? malloc(sizeof(double) * (size_t)r->n) : NULL;
    if (gio_mpi_agree(gio_mpi_rank() == 0 && !top, NULL))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    if (gio_mpi_gather_doubles(r->pnl_local, (size_t)(r->hi - r->lo), top))
        return free(top), snprintf(err, MCVAR_ERRLEN, "gathering scenario P&L failed"), -1;
    if (gio_mpi_rank() == 0) {
        int lv = 0;
        for (int l = 1; l < r->p.nconfidence; l++)
            if (r->p.confidence[l] > r->p.confidence[lv]) lv = l;
        long long cnt = L - h;
        double *tmp = malloc(sizeof(double) * (size_t)cnt), best = 0;
        if (!tmp) return free(top), snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
        params one = r->p;
        one.nconfidence = 1;
        one.confidence[0] = r->p.confidence[lv];
        for (int s0 = 0; s0 + L <= r->m.ndates; s0++) {
            memcpy(tmp, top + s0, sizeof(double) * (size_t)cnt);
            risk_summary rs;
            if (risk_analyse(tmp, cnt, &one, 0, &rs)) {
                free(tmp);
                free(top);
                return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
            }
            if (s0 == 0 || rs.level[0].var > best) {
                best = rs.level[0].var;
                first = s0;
            }
            risk_free(&rs);
        }
        free(tmp);
    }
    free(top);
    if (gio_mpi_bcast(&first, sizeof first, 0)) return snprintf(err, MCVAR_ERRLEN, "broadcast failed"), -1;
    r->g.first_date = first;
    r->g.ndates = L;
    memcpy(r->stress_from, r->m.dates[first], 11);
    memcpy(r->stress_to, r->m.dates[first + L - 1], 11);
    return 0;
}

/* Each position's Euler contributions to `node` (all positions when node is the top, else
 * the node's own positions) among positions [plo, phi), for every level, from the scenarios
 * ranked 1..R in the node's order, regenerated from their indices. Each position's sums run
 * over the scenarios in rank order whichever positions a rank holds, so the figures do not
 * depend on how the positions are split. */
static int position_contributions(run *r, const risk_summary *rs, int node, int plo, int phi,
                                  double *var_c, double *es_c) {
    const book *b = &r->b;
    int nl = rs->nlevels, np = b->n, all = node == 0, any = all && plo < phi;
    for (int p = plo; !any && p < phi; p++) any = b->node[p] == node;
    if (!any) return 0; /* none of the node's positions here: no scenario to regenerate */
    long long R = risk_ranks_needed(rs);
    int len = phi - plo;
    double *vs = calloc((size_t)nl * len, sizeof(double)), *es = calloc((size_t)nl * len, sizeof(double));
    double out[BLOCK];
    block_buf k;
    int rc = block_alloc(&k, &r->m, b) || !vs || !es ? -1 : 0;
    /* per level, the block's ES weights and VaR window, found once for all positions (a call
     * per position, level and scenario was most of this function's time); each sum still adds
     * the same terms in the same order */
    double wes[PARAMS_MAX_CONF][BLOCK];
    int wlo[PARAMS_MAX_CONF], whi[PARAMS_MAX_CONF];
    for (long long at = 0; !rc && at < R; at += BLOCK) {
        int cnt = (int)(R - at < BLOCK ? R - at : BLOCK);
        block_fill(r, &k, 0, rs->order + at, cnt);
        for (int l = 0; l < nl; l++) {
            const var_level *v = &rs->level[l];
            for (int j = 0; j < cnt; j++) wes[l][j] = risk_es_weight(v, at + j + 1);
            long long lo = v->win_from - (at + 1), hi = v->win_to - at; /* j in [lo, hi) */
            wlo[l] = (int)(lo < 0 ? 0 : lo > cnt ? cnt : lo);
            whi[l] = (int)(hi < wlo[l] ? wlo[l] : hi > cnt ? cnt : hi);
        }
        for (int p = plo; p < phi; p++) {
            if (!all && b->node[p] != node) continue;
            pricer_position_pnl(&r->pr, p, k.x, k.lev, k.fx, BLOCK, cnt, out);
            for (int l = 0; l < nl; l++) {
                size_t i = (size_t)l * len + (p - plo);
                double v_sum = vs[i], e_sum = es[i];
                for (int j = wlo[l]; j < whi[l]; j++) v_sum += out[j];
                for (int j = 0; j < cnt; j++) e_sum += wes[l][j] * out[j];
                vs[i] = v_sum;
                es[i] = e_sum;
            }
        }
    }
    for (int l = 0; !rc && l < nl; l++)
        for (int p = plo; p < phi; p++) {
            if (!all && b->node[p] != node) continue;
            size_t i = (size_t)l * len + (p - plo);
            var_c[(size_t)l * np + p] = risk_var_contribution(&rs->level[l], vs[i]);
            es_c[(size_t)l * np + p] = risk_es_contribution(es[i]);
        }
    block_free(&k);
    free(vs);
    free(es);
    return rc;
}

/* What every rank needs of node `node`'s tail to value its positions' contributions: rank 0's
 * scenario count, levels and the order of the ranks needed, broadcast into the other ranks'
 * rs[node] (zeroed there until now; risk_free releases the order). */
static int share_tail(run *r, int node) {
    risk_summary *rs = &r->rs[node];
    struct { long long n, need; int nlevels; } head = {rs->n, 0, rs->nlevels};
    if (gio_mpi_rank() == 0) head.need = risk_ranks_needed(rs);
    if (gio_mpi_bcast(&head, sizeof head, 0)) return -1;
    if (gio_mpi_rank() != 0) {
        rs->n = head.n;
        rs->nlevels = head.nlevels;
        rs->order = malloc(sizeof(long long) * (size_t)(head.need > 0 ? head.need : 1));
    }
    if (gio_mpi_agree(head.need > 0 && !rs->order, NULL)) return -1;
    if (gio_mpi_bcast(rs->level, sizeof rs->level, 0)) return -1;
    return head.need > 0 ? gio_mpi_bcast(rs->order, sizeof(long long) * (size_t)head.need, 0) : 0;
}

/* Every rank: the Euler contributions of its share of the positions (a contiguous range, by
 * the canonical order), to the top node and to each position's own node; rank 0 gathers
 * every share into top_var/top_es/own_var/own_es. Pricing the tail scenarios for every
 * position twice was rank 0's largest part alone while the other ranks waited. */
static int contributions(run *r, char *err) {
    const book *b = &r->b;
    int me = gio_mpi_rank(), size = gio_mpi_size(), nl = r->p.nconfidence, np = b->n;
    size_t cells = (size_t)nl * (size_t)np;
    r->own_var = calloc(cells ? cells : 1, sizeof(double));
    r->own_es = calloc(cells ? cells : 1, sizeof(double));
    r->top_var = calloc(cells ? cells : 1, sizeof(double));
    r->top_es = calloc(cells ? cells : 1, sizeof(double));
    int st = !r->own_var || !r->own_es || !r->top_var || !r->top_es;
    if (gio_mpi_agree(st, NULL)) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    for (int i = 0; i < b->nnodes; i++)
        if ((i == 0 || b->own[i]) && share_tail(r, i))
            return snprintf(err, MCVAR_ERRLEN, "sharing the tail scenarios failed"), -1;
    int plo = (int)((long long)np * me / size), phi = (int)((long long)np * (me + 1) / size);
    st = position_contributions(r, &r->rs[0], 0, plo, phi, r->top_var, r->top_es);
    for (int i = 1; !st && i < b->nnodes; i++)
        if (b->own[i]) st = position_contributions(r, &r->rs[i], i, plo, phi, r->own_var, r->own_es);
    if (gio_mpi_agree(st, NULL)) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    /* each rank's share to rank 0, one message: four arrays of nl rows of its positions */
    double *arrays[4] = {r->top_var, r->top_es, r->own_var, r->own_es};
    size_t most = (size_t)4 * nl * (size_t)(np / size + 1);
    double *buf = size > 1 ? malloc(sizeof(double) * most) : NULL;
    if (gio_mpi_agree(size > 1 && !buf, NULL)) return free(buf), snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    for (int q = 1; !st && q < size; q++) {
        int qlo = (int)((long long)np * q / size), qhi = (int)((long long)np * (q + 1) / size);
        size_t len = (size_t)(qhi - qlo), bytes = sizeof(double) * 4 * nl * len;
        if (me == q) {
            for (int a = 0; a < 4; a++)
                for (int l = 0; l < nl; l++)
                    memcpy(buf + ((size_t)a * nl + l) * len, arrays[a] + (size_t)l * np + qlo,
                           sizeof(double) * len);
            st = bytes && gio_mpi_send(buf, bytes, 0);
        } else if (me == 0) {
            st = bytes && gio_mpi_recv(buf, bytes, q);
            for (int a = 0; !st && a < 4; a++)
                for (int l = 0; l < nl; l++)
                    memcpy(arrays[a] + (size_t)l * np + qlo, buf + ((size_t)a * nl + l) * len,
                           sizeof(double) * len);
        }
    }
    free(buf);
    if (gio_mpi_agree(st, NULL)) return snprintf(err, MCVAR_ERRLEN, "gathering the contributions failed"), -1;
    return 0;
}

/* Rank 0: the child nodes' contributions and the output files (temporary names). */
static int analyse_and_write(run *r, report *rep, char *err) {
    const book *b = &r->b;
    int nl = r->p.nconfidence;
    size_t ncells = (size_t)nl * (size_t)b->nnodes;
    r->child_var = calloc(ncells, sizeof(double));
    r->child_es = calloc(ncells, sizeof(double));
    if (!r->child_var || !r->child_es) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    aggregate_child_contributions(b, r->rs, r->child_var, r->child_es);
    results res = {.p = &r->p, .b = b, .m = &r->m, .n = r->n, .first_date = r->g.first_date,
.rs = r->rs, .own_var = r->own_var, .own_es = r->own_es,
                   .top_var = r->top_var, .top_es = r->top_es, .child_var = r->child_var,
                   .child_es = r->child_es, .dq = r->q.rows, .ndq = r->q.n,
                   .stress_from = r->stress_from, .stress_to = r->stress_to,
                   .stop = r->stop.target_rse > 0 ? &r->stop : NULL};
    const char *names[] = {"params", "factors", "history", "covariance", "positions", "scenarios"};
    const char *paths[] = {r->o.params, r->o.factors, r->o.history, r->o.covariance, r->o.positions,
                           r->o.scenarios_in};
    for (int i = 0; i < 6; i++)
        if (paths[i]) {
            res.input_name[res.ninputs] = names[i];
            res.input_path[res.ninputs++] = paths[i];
        }
    report_options ro = {r->o.out_dir, r->o.run_id, r->o.compress_output, r->o.block_size};
    return report_write(rep, &ro, &res, err);
}

/* Every rank: the statistics (rank 0 gets them) and node_pnl.csv.gz under pnl_tmp. */
static int analyse_spread(run *r, char *pnl_tmp, char *pnl_final, char *err) {
    const book *b = &r->b;
    int mc = r->p.method != METHOD_HISTORICAL;
    dist_pnl d = pnl_view(r);
    r->rs = calloc((size_t)b->nnodes, sizeof *r->rs);
    char *parent = calloc((size_t)b->nnodes, 1);
    int st = !r->rs || !parent;
    if (gio_mpi_agree(st, NULL)) return free(parent), snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    for (int i = 0; i < b->nnodes; i++) parent[i] = b->nchildren[i] > 0;
    double t0 = gio_mpi_wtime();
    st = dist_risk_analyse(&d, &r->p, mc, r->p.histogram_bins, parent, r->rs);
    r->t_stats = gio_mpi_wtime() - t0;
    free(parent);
    if (st) return snprintf(err, MCVAR_ERRLEN, "out of memory in the statistics"), -1;
    long pid = (long)getpid();
    if (gio_mpi_bcast(&pid, sizeof pid, 0)) return snprintf(err, MCVAR_ERRLEN, "broadcast failed"), -1;
    report_node_pnl_path(r->o.out_dir, pid, pnl_tmp, pnl_final, 4096);
    t0 = gio_mpi_wtime();
    st = pnl_write(&d, b->node_path, pnl_tmp, r->o.block_size, err, MCVAR_ERRLEN);
    r->t_pnl = gio_mpi_wtime() - t0;
    return st;
}

/* --node-pnl-stdout: rank 0 copies the committed node_pnl.csv.gz to standard output. */
static int node_pnl_to_stdout(const run *r, char *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/node_pnl.csv.gz", r->o.out_dir);
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, MCVAR_ERRLEN, "cannot read %s: %s", path, strerror(errno)), -1;
    char buf[65536];
    size_t got;
    int bad = 0;
    while (!bad && (got = fread(buf, 1, sizeof buf, f)) > 0) bad = fwrite(buf, 1, got, stdout) != got;
    bad |= ferror(f) | (fflush(stdout) != 0);
    fclose(f);
    return bad ? (snprintf(err, MCVAR_ERRLEN, "copying %s to standard output failed", path), -1) : 0;
}

static void print_timings(const run *r, double t_total) {
    double tmax = gio_mpi_max_double(r->t_value), cmax = gio_mpi_max_double(r->cpu_value);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss = gio_mpi_max_double((double)ru.ru_maxrss / 1024.0);
    if (gio_mpi_rank() != 0) return;
    int np = gio_mpi_size();
    double vals = (double)r->n * r->b.n;
    printf("mcvar.ranks: %d\nmcvar.scenarios: %lld\nmcvar.positions: %d\nmcvar.nodes: %d\n"
           "mcvar.read_seconds: %.3f\nmcvar.valuation_seconds: %.3f\n"
           "mcvar.valuations_per_sec_per_rank: %.0f\nmcvar.valuation_cpu_seconds: %.3f\n"
           "mcvar.valuations_per_cpu_sec_per_rank: %.0f\nmcvar.total_seconds: %.3f\n",
           np, r->n, r->b.n, r->b.nnodes, r->t_read, tmax, vals / (tmax * np), cmax,
           vals / (cmax * np), t_total);
    /* contributions: every rank values its positions' tail scenarios; rank0_only: what rank 0
     * does while the others wait (the child nodes' contributions, the output files) */
    printf("mcvar.statistics_seconds: %.3f\nmcvar.node_pnl_seconds: %.3f\n"
           "mcvar.contributions_seconds: %.3f\n"
           "mcvar.rank0_only_seconds: %.3f\nmcvar.rank0_only_percent: %.2f\n"
           "mcvar.peak_rss_mib_max_rank: %.0f\n", r->t_stats, r->t_pnl, r->t_contrib, r->t_rank0,
           100 * r->t_rank0 / t_total, rss);
    if (r->progress)
        printf("mcvar.checkpoint_seconds: %.3f\nmcvar.regroup_seconds: %.3f\n"
               "mcvar.stopped_at_scenarios: %lld\n", r->t_progress, r->t_regroup, r->n);
}

static int what_if_mode(run *r) {
    char err[MCVAR_ERRLEN] = "";
    double t0 = gio_mpi_wtime();
    if (agree(load_market(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    if (agree(book_read(&r->b, &r->m, r->p.base_currency, r->o.what_if, &r->o.read, err) ? EXIT_INPUT : 0, err))
        return EXIT_INPUT;
    if (agree(prepare(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    int st = 0;
    report rep = {0};
    if (gio_mpi_rank() == 0) {
        whatif_inputs in = {&r->o, &r->p, &r->m, &r->b, &r->g, &r->pr, r->n};
        st = whatif_run(&in, &rep, err) ? EXIT_INPUT : 0;
    }
    if ((st = agree(st, err))) {
        report_abandon(&rep);
        return st;
    }
    st = gio_mpi_rank() == 0 && report_commit(&rep, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if (r->o.timings && gio_mpi_rank() == 0)
        printf("mcvar.what_if_positions: %d\nmcvar.what_if_seconds: %.3f\n", r->b.n,
               gio_mpi_wtime() - t0);
    return EXIT_OK;
}

/* --scenarios-out: the scenarios alone, written by rank 0. */
static int scenarios_out_mode(run *r) {
    char err[MCVAR_ERRLEN] = "";
    if (agree(load_market(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    if (agree(prepare_scenarios(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    r->n = scenarios_count(&r->g);
    int st = gio_mpi_rank() == 0 && scenario_file_write(&r->g, r->n, r->o.scenarios_out,
                                                         r->o.block_size, err) ? EXIT_OUTPUT : 0;
    return agree(st, err);
}

/* --aggregate: the parts' node P&L rolled up (aggregate.h), then the statistics and the files
 * that need no positions, as the one-program run writes them. */
static int aggregate_mode(run *r) {
    char err[MCVAR_ERRLEN] = "";
    int me = gio_mpi_rank();
    int st = me == 0 && report_clear(r->o.out_dir, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if (agree(params_read(&r->p, r->o.params, &r->o.read, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    st = aggregate_read(r->o.aggregate, me, gio_mpi_size(), &r->b, &r->n, &r->lo, &r->hi,
                        &r->pnl_local, err) ? EXIT_INPUT : 0;
    if ((st = agree(st, err))) return st;
    st = me == 0 && report_open_dir(r->o.out_dir, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    char pnl_tmp[4096], pnl_final[4096];
    if ((st = agree(analyse_spread(r, pnl_tmp, pnl_final, err) ? EXIT_OUTPUT : 0, err))) {
        if (me == 0) remove(pnl_tmp);
        return st;
    }
    report rep = {0};
    char *list = strdup(r->o.aggregate);
    if (me == 0 && !list) st = 1;
    if (me == 0 && list) {
        size_t ncells = (size_t)r->p.nconfidence * (size_t)r->b.nnodes;
        r->child_var = calloc(ncells, sizeof(double));
        r->child_es = calloc(ncells, sizeof(double));
        st = !r->child_var || !r->child_es;
        if (st) snprintf(err, MCVAR_ERRLEN, "out of memory");
        else aggregate_child_contributions(&r->b, r->rs, r->child_var, r->child_es);
        results res = {.p = &r->p, .b = &r->b, .n = r->n, .rs = r->rs,
                       .child_var = r->child_var, .child_es = r->child_es,
                       .stress_from = r->p.stress_from, .stress_to = r->p.stress_to};
        res.input_name[res.ninputs] = "params";
        res.input_path[res.ninputs++] = r->o.params;
        /* one input name each: SQL tables key run_inputs by (run_id, input) */
        static char input_names[REPORT_MAX_INPUTS][16];
        for (char *save = NULL, *p = strtok_r(list, ",", &save); p && res.ninputs < REPORT_MAX_INPUTS;
             p = strtok_r(NULL, ",", &save)) {
            snprintf(input_names[res.ninputs], sizeof input_names[0], "node_pnl_%d", res.ninputs);
            res.input_name[res.ninputs] = input_names[res.ninputs];
            res.input_path[res.ninputs++] = p;
        }
        report_options ro = {r->o.out_dir, r->o.run_id, r->o.compress_output, r->o.block_size};
        if (!st) st = report_write_aggregate(&rep, &ro, &res, err) ||
                      report_adopt(&rep, pnl_tmp, pnl_final, err) ? EXIT_OUTPUT : 0;
    }
    free(list);
    if ((st = agree(st ? EXIT_OUTPUT : 0, err))) {
        report_abandon(&rep);
        if (me == 0) remove(pnl_tmp);
        return st;
    }
    st = me == 0 && report_commit(&rep, err) ? EXIT_OUTPUT : 0;
    if (!st && me == 0 && r->o.node_pnl_stdout) st = node_pnl_to_stdout(r, err) ? EXIT_OUTPUT : 0;
    return agree(st, err);
}

static int execute(run *r) {
    char err[MCVAR_ERRLEN] = "";
    int me = gio_mpi_rank();
    double t0 = gio_mpi_wtime();
    if (r->o.what_if) return what_if_mode(r);
    if (r->o.scenarios_out) return scenarios_out_mode(r);
    if (r->o.aggregate) return aggregate_mode(r);
    int st = me == 0 && report_clear(r->o.out_dir, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if (agree(load_inputs(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    r->t_read = gio_mpi_wtime() - t0;
    if (agree(prepare(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    st = r->progress ? simulate_with_checkpoints(r, err) : simulate(r, err);
    if (agree(st ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    if (r->p.stress_window_days) {
        /* search on the whole history, then value the book on the window found */
        if (agree(search_stress_window(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
        r->n = scenarios_count(&r->g);
        if (agree(simulate(r, err) ? EXIT_INPUT : 0, err)) return EXIT_INPUT;
    }
    report rep = {0};
    char pnl_tmp[4096], pnl_final[4096];
    /* the output directory must exist before every rank writes node_pnl.csv.gz into it */
    st = me == 0 && report_open_dir(r->o.out_dir, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if ((st = agree(analyse_spread(r, pnl_tmp, pnl_final, err) ? EXIT_OUTPUT : 0, err))) {
        if (me == 0) remove(pnl_tmp);
        return st;
    }
    double t_contrib = gio_mpi_wtime();
    if ((st = agree(contributions(r, err) ? EXIT_OUTPUT : 0, err))) {
        if (me == 0) remove(pnl_tmp);
        return st;
    }
    r->t_contrib = gio_mpi_wtime() - t_contrib;
    double t_rank0 = gio_mpi_wtime();
    st = me == 0 && (analyse_and_write(r, &rep, err) || report_adopt(&rep, pnl_tmp, pnl_final, err))
             ? EXIT_OUTPUT : 0;
    r->t_rank0 = gio_mpi_wtime() - t_rank0;
    if ((st = agree(st, err))) {
        report_abandon(&rep);
        if (me == 0) remove(pnl_tmp);
        return st;
    }
    st = me == 0 && report_commit(&rep, err) ? EXIT_OUTPUT : 0;
    if (!st && me == 0 && r->o.node_pnl_stdout) st = node_pnl_to_stdout(r, err) ? EXIT_OUTPUT : 0;
    if ((st = agree(st, err))) return st;
    if (r->o.timings) print_timings(r, gio_mpi_wtime() - t0);
    return EXIT_OK;
}

static void release(run *r) {
    if (r->rs)
        for (int i = 0; i < r->b.nnodes; i++) risk_free(&r->rs[i]);
    free(r->rs);
    market_free(&r->m);
    book_free(&r->b);
    scenarios_free(&r->g);
    pricer_free(&r->pr);
    quality_free(&r->q);
    mcvar_progress_free(&r->pg);
    mcvar_rounds_free(&r->rounds);
    free(r->pnl_local);
    free(r->sx);
    free(r->own_var); free(r->own_es); free(r->top_var); free(r->top_es);
    free(r->child_var); free(r->child_es);
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
