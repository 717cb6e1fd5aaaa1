/* dist_risk: every node's statistics (risk.h) from P&L spread over the ranks, without
 * gathering it: each rank holds the P&L of a contiguous range of scenarios, the ranges in
 * rank order. Results are byte-identical to risk_analyse on the whole vector, whatever the
 * number of ranks (README, "Statistics without a gather"):
 *  - sums (mean, variance, Chen's ES standard error) run along a chain of ranks in scenario
 *    order, so every addition happens in the same order as in one loop;
 *  - the R = risk_tail_ranks smallest P&Ls (ties by scenario index) are found by a radix
 *    selection on the doubles' ordered bit patterns: four rounds of 65,536-bucket histograms
 *    summed over the ranks narrow the R-th smallest to one exact value, and ties at it are
 *    taken in scenario order; only those R scenarios travel, sorted, to rank 0;
 *  - histogram counts are integers summed over the ranks.
 * Collective: every rank calls it. */
#ifndef MCVAR_DIST_RISK_H
#define MCVAR_DIST_RISK_H

#include "params.h"
#include "risk.h"

typedef struct dist_pnl {
    const double *local; /* nnodes x nloc, node-major: this rank's scenarios lo .. lo+nloc-1 */
    long long nloc, lo, n;
    int nnodes;
} dist_pnl;

/* Fills rs[0..nnodes) on rank 0: n, mean, stddev, min, max, every level (standard errors when
 * with_stderr), order for ranks 1..ntail, rows where with_rows[i] (a parent: its children's
 * contributions read them) and the histogram of `bins` bins. Other ranks' rs are left
 * zeroed. Returns -1 (every rank) when out of memory or a transfer failed. */
int dist_risk_analyse(const dist_pnl *d, const params *p, int with_stderr, int bins,
                      const char *with_rows, risk_summary *rs);

#endif
