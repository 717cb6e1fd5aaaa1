/* report: writes mcvar's three output files under temporary names in the output directory;
 * report_commit renames them once every rank agreed on success, report_abandon removes
 * them, so no partial file ever carries a final name. */
#ifndef MCVAR_REPORT_H
#define MCVAR_REPORT_H

#include "positions.h"
#include "risk.h"

#define REPORT_FILES 3

typedef struct report {
    char tmp[REPORT_FILES][4096], final[REPORT_FILES][4096];
    int written;
} report;

typedef struct report_options {
    const char *out_dir, *run_id;
    int compress;
    size_t block_size;
} report_options;

/* Removes the result files (plain and .gz) an earlier run left in out_dir, so that a run
 * that fails leaves no results at all rather than an older run's, which a stage-out would
 * take for this run's. A missing directory or file is fine. */
int report_clear(const char *out_dir, char *err);
int report_write(report *rep, const report_options *o, const risk_summary *r,
                 const double *pnl, int bins, const book *bk,
                 const double *contrib /* nlevels x positions */, char *err);
int report_commit(report *rep, char *err);
void report_abandon(report *rep);

#endif
