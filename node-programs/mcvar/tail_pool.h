/* tail_pool: the smallest P&Ls of the scenarios valued so far, node by node, kept exact on
 * rank 0 while the P&L itself stays on the ranks that valued it (README, "Live results and
 * the adaptive stop"). A checkpoint's VaR, ES and their standard errors read only the K
 * smallest of the first `done` P&Ls (progress.c), K a few per cent of done.
 *
 * Rank 0 keeps for each node a pool: values in ascending order, such that every P&L of the
 * scenarios done that is not in the pool is at least the pool's largest (the pool is the
 * |pool| smallest, as a multiset). Every rank knows the node's threshold thr, the largest
 * value of the pool when values were dropped (else +infinity). At a checkpoint:
 *  1. each rank sends only the P&Ls of the round just valued that are at most thr (a
 *     branch-free pass over its share of the round; nothing else is read again);
 *  2. rank 0 sorts them (radix sort on the doubles' ordered bit patterns, Knuth TAOCP vol. 3,
 *     5.2.5) and merges them into the pool: all that was dropped or not sent is >= thr >=
 *     every pooled value, so the pool is again the |pool| smallest of the new prefix;
 *  3. after estimating, rank 0 keeps the 2 K' smallest (K' what the next checkpoint needs)
 *     and lowers thr to the last kept. The next checkpoint has at least that many values at
 *     most thr, so the pool holds its K unless the new round brought too few (the next
 *     round's scenarios are drawn like the earlier ones: a fraction of about 2 K' / done of
 *     them fall below thr); then (tail_pool_refill) the ranks send that node's whole prefix
 *     once and rank 0 builds the pool anew. Exact either way.
 * Only values travel, not scenario indices: a checkpoint's figures depend on values alone.
 * -0.0 and +0.0 share a key and come out as +0.0 (printed alike). */
#ifndef MCVAR_TAIL_POOL_H
#define MCVAR_TAIL_POOL_H

typedef struct tail_pool {
    int nnodes;
    double *thr;      /* every rank: per node, send the P&Ls at most this */
    double **v;       /* rank 0: per node, the pool, ascending */
    long long *len;
    char *dropped;    /* rank 0: per node, values were dropped (else the pool is the prefix) */
    double seconds;   /* this rank's own work (filtering; on rank 0 sorting and merging) */
    long long refills; /* node pools rebuilt from the whole prefix (tail_pool_refill) */
} tail_pool;

/* Every rank. Returns -1 when out of memory. */
int tail_pool_init(tail_pool *t, int nnodes);
void tail_pool_free(tail_pool *t);

/* Collective. rows: this rank's P&L, nnodes (at least t->nnodes) rows of `stride` doubles,
 * its first `held` values the scenarios it valued so far, the last `fresh` of them those of
 * the round just valued. Rank 0 merges every rank's fresh values at most thr into the pools.
 * Returns -1 (every rank) when out of memory or a transfer failed, and -2 on rank 0 alone
 * when rank 0 ran out of memory merging (the caller tells the others). */
int tail_pool_add(tail_pool *t, const double *rows, long long stride, long long held,
                  long long fresh);
/* Rank 0: whether node i's pool holds the `need` smallest P&Ls of the scenarios done. */
int tail_pool_holds(const tail_pool *t, int i, long long need);
/* Collective: for the nodes with lacking[i] set, rank 0 receives every rank's `held` values
 * and rebuilds the pool from all of them. Returns -1 (every rank) on failure. */
int tail_pool_refill(tail_pool *t, const char *lacking, const double *rows, long long stride,
                     long long held);
/* Rank 0: keeps node i's `keep` smallest, lowering its threshold when values are dropped. */
void tail_pool_keep(tail_pool *t, int i, long long keep);

#endif
