/* progress: checkpoints of a Monte Carlo run (README, "Live results and the adaptive stop").
 *
 * Scenarios are valued in rounds that end at fixed checkpoint counts (a function of
 * checkpoint_scenarios and the scenario cap only, never of the rank count or of timing).
 * At each checkpoint rank 0 holds the P&L of the first `done` scenarios of every node in
 * scenario order; from them it estimates every node's VaR and ES with the standard errors
 * mcvar reports (risk.c), replaces the progress file atomically (temporary file + rename)
 * and, with a target relative standard error, decides whether the run stops there.
 * Nothing here touches the P&L arrays, so the final results are those of a run without
 * progress on the same scenarios. */
#ifndef MCVAR_PROGRESS_H
#define MCVAR_PROGRESS_H

#include <stdio.h>

#include "params.h"

/* The checkpoint after `done` scenarios: base, 2 base, ... and, from 4 base on, steps of a
 * quarter of `done` rounded down to a multiple of base (geometric growth, so estimating at
 * every checkpoint costs a bounded multiple of one final estimate); never beyond cap. */
long long mcvar_checkpoint_next(long long done, long long base, long long cap);

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
    char *rows;           /* every checkpoint's rows so far (the file's body) */
    size_t len, size;
    double *scratch;      /* cap doubles */
    mcvar_estimate *est;  /* nnodes x nlevels at the last checkpoint */
    double *thr;          /* per node: a value with enough P&Ls below it (progress.c) */
    char *has_thr;
    long long done;
    int warned;           /* a failed write was reported once */
} mcvar_progress;

/* Rank 0 (and only when path or target_rse is set). Returns -1 when out of memory. */
int mcvar_progress_init(mcvar_progress *g, const char *path, const params *p, long long cap,
                        int nnodes, char *const *node_path);
/* Rank 0 at a checkpoint: pnl is node-major with row stride `stride`, its first `done`
 * scenarios valued. Estimates, appends the checkpoint to the file and replaces it (a failed
 * write is reported on stderr once and does not stop the run). Returns 1 when the target
 * is met, else 0. */
int mcvar_progress_checkpoint(mcvar_progress *g, const double *pnl, long long stride,
                              long long done);
/* What stopping.csv reports, after the last checkpoint. */
mcvar_stopping mcvar_progress_stopping(const mcvar_progress *g);
void mcvar_progress_free(mcvar_progress *g);

/* Whether an estimate's standard errors are within target_rse of its values (a zero value
 * meets the target only with a zero standard error). */
double mcvar_rse(double value, double stderr_);

#endif
