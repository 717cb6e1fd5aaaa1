/* progress: checkpoints of a Monte Carlo run (README, "Live results and the adaptive stop").
 *
 * Scenarios are valued in rounds that end at fixed checkpoint counts (rounds.h: a function
 * of checkpoint_scenarios and the scenario cap only, never of the rank count or of timing).
 * At each checkpoint every rank holds the P&L of the scenarios it valued; rank 0 receives
 * from them just enough of the smallest P&Ls of the first `done` scenarios (tail_pool.h) to
 * estimate every node's VaR and ES with the standard errors mcvar reports (risk.c), replaces
 * the progress file atomically (temporary file + rename) and, with a target relative
 * standard error, decides whether the run stops there; every rank learns the decision.
 * Nothing here changes the P&L arrays, so the final results are those of a run without
 * progress on the same scenarios. */
#ifndef MCVAR_PROGRESS_H
#define MCVAR_PROGRESS_H

#include <stdio.h>

#include "params.h"
#include "tail_pool.h"

/* One node's VaR/ES with their standard errors at one confidence. */
typedef struct mcvar_estimate {
    double var, es, var_se, es_se;
} mcvar_estimate;

/* A figure the target was checked on, as reported in stopping.csv. */
typedef struct mcvar_stopping {
    double target_rse;
    long long cap, scenarios; /* the scenario cap and where the run stopped */
    int reached;              /* every requested figure met the target */
    int nodes;                /* requested nodes: 1 (the top) or all */
    const mcvar_estimate *est; /* nodes x levels, node-major, at `scenarios` */
} mcvar_stopping;

typedef struct mcvar_progress {
    const char *path;     /* the progress file, or NULL: publish nothing */
    double target_rse;    /* 0: run to the cap */
    int target_all_nodes; /* the target applies to every node (else the top node) */
    long long base, cap;
    int nnodes, nlevels;
    char *const *node_path;
    const double *confidence;
    int nest;             /* nodes estimated: all with a file or target_nodes=all, else the top */
    char *rows;           /* rank 0: every checkpoint's rows so far (the file's body) */
    size_t len, size;
    mcvar_estimate *est;  /* rank 0: nnodes x nlevels at the last checkpoint */
    tail_pool tail;       /* the nest first nodes' smallest P&Ls */
    double *msg;          /* rank 0's word after a checkpoint: 2 + nest doubles */
    char *lacking;
    long long done;
    double seconds;       /* this rank's own work at checkpoints (not waiting for others) */
    int warned;           /* a failed write was reported once */
} mcvar_progress;

/* Every rank (when path or target_rse is set). Returns -1 when out of memory. */
int mcvar_progress_init(mcvar_progress *g, const char *path, const params *p, long long cap,
                        int nnodes, char *const *node_path);
/* Collective, at a checkpoint: rows hold this rank's P&L, node-major with row stride
 * `stride`, its first `held` values the scenarios it valued so far (ascending), the last
 * `fresh` of them those valued since the last checkpoint; `done` scenarios are valued over
 * all ranks. Rank 0 estimates, appends the checkpoint to the file and replaces it (a failed
 * write is reported on stderr once and does not stop the run). *stop is set on every rank:
 * 1 when the target is met. Returns -1 (every rank) when out of memory or a transfer failed. */
int mcvar_progress_checkpoint(mcvar_progress *g, const double *rows, long long stride,
                              long long held, long long fresh, long long done, int *stop);
/* Rank 0: what stopping.csv reports, after the last checkpoint. */
mcvar_stopping mcvar_progress_stopping(const mcvar_progress *g);
void mcvar_progress_free(mcvar_progress *g);

/* Whether an estimate's standard errors are within target_rse of its values (a zero value
 * meets the target only with a zero standard error). */
double mcvar_rse(double value, double stderr_);

#endif
