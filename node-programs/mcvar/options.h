/* options: mcvar's command line (fixed by docs/sample-var-job.md; options may be added). */
#ifndef MCVAR_OPTIONS_H
#define MCVAR_OPTIONS_H

#include <stdio.h>

#include "gio.h"

typedef struct mcvar_options {
    const char *factors, *history, *covariance, *positions, *params, *out_dir, *run_id;
    const char *what_if; /* new trades: revalue only them on the stored scenarios */
    const char *progress; /* the progress file (progress.h), or NULL */
    double target_rse;    /* --target-rse, overrides the parameter; 0: not given */
    const char *scenarios_out; /* --scenarios-out: write the scenarios there and stop */
    const char *scenarios_in;  /* --scenarios-in: price the book on these scenarios */
    const char *aggregate;     /* --aggregate: node P&L files of the book's parts */
    int node_pnl_stdout;       /* --node-pnl-stdout: node_pnl.csv.gz copied to stdout */
    const char *follow_inputs; /* --follow-inputs: names of inputs read as they arrive */
    double follow_timeout;     /* --follow-timeout: seconds without a new byte (600) */
    gio_read_options read;
    int compress_output, timings;
    size_t block_size;
} mcvar_options;

/* Returns 0, 1 for --help (printed), or -1 with a message in err. */
int options_parse(int argc, char **argv, mcvar_options *o, char *err, size_t errlen);
void options_help(FILE *f);

#endif
