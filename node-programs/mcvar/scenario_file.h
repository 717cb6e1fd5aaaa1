/* scenario_file: a run's scenarios as a file of their own, so that generating them and
 * pricing books on them can be separate steps (a chain's stages, README "A run in stages").
 *
 * scenarios.csv.gz: scenario,<factor_id>,... in the market's canonical factor order, one row
 * per scenario index from 0, each factor's return over the horizon (scenarios.h) written
 * with %.17g, which reads back as the same double (C11 7.21.6.1: 17 significant digits
 * identify every binary64 value). A book priced on the file therefore sees the very returns
 * the one-program run generates, and its results are byte-identical to that run's. */
#ifndef MCVAR_SCENARIO_FILE_H
#define MCVAR_SCENARIO_FILE_H

#include <stddef.h>

#include "gio.h"
#include "market.h"
#include "scenarios.h"

/* Rank 0 writes all n scenarios of g into path ("-": standard output) as blocked gzip
 * (`block_size` bytes a block), straight under its name so a consumer can follow it as it
 * grows (gio_follow); a failed write removes the file. Returns 0 or -1 with a message. */
int scenario_file_write(scenario_gen *g, long long n, const char *path, size_t block_size,
                        char *err);

/* Every rank reads the file (collectively, or followed: inputs.h) into x, factor-major
 * (x[f * n + s]), checking that it holds the market's factors and exactly the scenarios
 * 0..n-1 in order. *x is malloc'ed; returns 0 or -1 with a "file:line: ..." message. */
int scenario_file_read(const market *m, long long n, const char *path,
                       const gio_read_options *o, double **x, char *err);

#endif
