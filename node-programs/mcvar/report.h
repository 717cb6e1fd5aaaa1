/* report: writes mcvar's output files (README, "Outputs") under temporary names in the
 * output directory; report_commit renames them once every rank agreed on success,
 * report_abandon removes them, so no partial file ever carries a final name. */
#ifndef MCVAR_REPORT_H
#define MCVAR_REPORT_H

#include "market.h"
#include "params.h"
#include "positions.h"
#include "progress.h"
#include "risk.h"

#define REPORT_MAX_FILES 12
#define REPORT_MAX_INPUTS 64 /* --aggregate: params and up to 63 node P&L files */
#define MCVAR_VERSION "mcvar 2.0"

typedef struct report {
    char tmp[REPORT_MAX_FILES][4096], final[REPORT_MAX_FILES][4096];
    int written;
} report;

typedef struct report_options {
    const char *out_dir, *run_id;
    int compress;
    size_t block_size;
} report_options;

/* A data-quality finding (on_bad_data=report). */
typedef struct dq_row {
    char file[512], factor[128], check[32], value[64];
    long long line;
} dq_row;

/* Everything the files are written from (rank 0). */
typedef struct results {
    const params *p;
    const book *b;
    const market *m;
    long long n;                /* scenarios */
    int first_date;             /* historical: the date of scenario 0 */
    const risk_summary *rs;     /* per node */
    /* nlevels x positions: contributions to the position's own node and to the top node */
    const double *own_var, *own_es, *top_var, *top_es;
    const double *child_var, *child_es; /* nlevels x nodes: each node to its parent */
    const char *input_name[REPORT_MAX_INPUTS], *input_path[REPORT_MAX_INPUTS];
    int ninputs;
    const dq_row *dq;
    int ndq;
    const char *stress_from, *stress_to; /* "" when not a stressed run */
    const mcvar_stopping *stop;          /* target_rse runs: stopping.csv; else NULL */
} results;

/* Removes the result files (plain and .gz) an earlier run left in out_dir, so that a run
 * that fails leaves no results at all rather than an older run's, which a stage-out would
 * take for this run's. A missing directory or file is fine. */
int report_clear(const char *out_dir, char *err);
/* Creates out_dir (one level, like mkdir) unless it exists. */
int report_open_dir(const char *out_dir, char *err);
int report_write(report *rep, const report_options *o, const results *res, char *err);
/* --aggregate: the files that need no positions nor market (var_summary, pnl_distribution,
 * node_contributions, run, run_inputs); res->m, own_var .. top_es and dq are not read. */
int report_write_aggregate(report *rep, const report_options *o, const results *res, char *err);
/* what_if.csv only: before/after per node and level (nlevels x nnodes each). */
int report_write_what_if(report *rep, const report_options *o, const params *p, const book *b,
                         int nnodes, char *const *node_path, const double *var_before,
                         const double *var_after, const double *es_before,
                         const double *es_after, char *err);
/* node_pnl.csv.gz is written by every rank (pnl_writer.h) under tmp (pid: rank 0's), then
 * adopted into rank 0's report, so it is renamed or removed with the other files. */
void report_node_pnl_path(const char *out_dir, long pid, char *tmp, char *final, size_t len);
int report_adopt(report *rep, const char *tmp, const char *final, char *err);
int report_commit(report *rep, char *err);
void report_abandon(report *rep);
/* Lower-case hex SHA-256 of a file's bytes (65 bytes). */
int report_sha256_file(const char *path, char *hex, char *err);

#endif
