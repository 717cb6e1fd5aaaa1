/* options.c: parses and checks mcvar's options; --help documents every input's columns. */
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void options_help(FILE *f) {
    fputs(
"usage: mcvar --factors F (--history F | --covariance F) --positions F --params F\n"
"             --out-dir DIR [--run-id ID] [--read-mode naive|root|mpiio|two-phase]\n"
"             [--access-ranks K] [--phase2 auto|mbc|atv] [--buffer-size BYTES]\n"
"             [--compress-output] [--block-size BYTES] [--timings]\n"
"\n"
"Monte Carlo (normal or Student-t) or historical-simulation Value-at-Risk, run under\n"
"mpirun. Results are identical for any number of ranks.\n"
"\n"
"Inputs: CSV with a header row; columns are found by name, extra columns ignored, rows in\n"
"any order, empty fields are NULL. Each file may be plain or blocked gzip (BGZF, found by\n"
"its magic bytes). A bad row stops the run with FILE:LINE: what is wrong.\n"
"  --factors     factor_id,kind,level\n"
"                kind: equity, fx, rate or another name; rate factors hold continuously\n"
"                compounded zero rates (0.03 = 3%). Levels must be > 0: every factor\n"
"                moves by a log return, scenario level = level * exp(x).\n"
"  --history     as_of,factor_id,level   (as_of YYYY-MM-DD; pivoted by date; every date\n"
"                needs every factor; at least 3 dates). Used to estimate the covariance\n"
"                of daily log returns, or replayed by method historical.\n"
"  --covariance  factor_i,factor_j,covariance   (of daily log returns; every pair, either\n"
"                order; the matrix must be positive semidefinite)\n"
"  --positions   position_id,instrument,factor_id,rate_factor_id,quantity,strike,\n"
"                maturity_years,volatility\n"
"                instrument spot: quantity units of factor_id (not a rate);\n"
"                zcb: pays quantity at maturity_years, discounted at rate_factor_id (or\n"
"                     factor_id if rate_factor_id is empty), a rate factor; if both are\n"
"                     given they must be the same;\n"
"                call, put: European Black-Scholes on factor_id, discounted at\n"
"                     rate_factor_id; strike > 0, maturity_years > 0, volatility >= 0.\n"
"                position_id is unique.\n"
"  --params      name,value with names\n"
"                scenarios (default 10000; Monte Carlo only), horizon_days (1; a year is\n"
"                252 trading days), confidence_levels (0.95;0.99), method (mc-normal,\n"
"                mc-student-t, historical), dof (5, > 2), seed (1), histogram_bins (50).\n"
"                Any other name is refused (FILE:LINE names it).\n"
"\n"
"Outputs in --out-dir (written under temporary names, renamed when every rank succeeded;\n"
"an earlier run's results there are removed first, so a failed run leaves none):\n"
"  var_summary.csv       run_id,confidence,var,expected_shortfall,pnl_mean,pnl_stddev,\n"
"                        scenarios   (VaR and ES as positive losses)\n"
"  pnl_distribution.csv  run_id,bin,lower,upper,count   (equal-width histogram, bin from 0)\n"
"  contributions.csv     run_id,position_id,confidence,contribution   (Euler allocation;\n"
"                        adds up to the VaR)\n"
"  With --compress-output the names end in .gz and the files are blocked gzip.\n"
"\n"
"Options:\n"
"  --run-id ID          run id in every output row (default $GANTRY_JOB_ID, else local)\n"
"  --read-mode M        collective input read: naive (every rank reads the file), root\n"
"                       (rank 0 reads and broadcasts), mpiio (MPI_File_read_all), or\n"
"                       two-phase (default: K access ranks read sections, then exchange)\n"
"  --access-ranks K     two-phase access ranks (default: one per node, at least 2)\n"
"  --phase2 P           two-phase exchange: auto (default), mbc (broadcast per section),\n"
"                       atv (one all-to-all)\n"
"  --buffer-size BYTES  user-space read buffer and collective round size (default 1048576,\n"
"                       at least 4096)\n"
"  --compress-output    write blocked gzip outputs\n"
"  --block-size BYTES   uncompressed bytes per output block (default 16384, at most 65280)\n"
"  --timings            print name: value timing lines on stdout (rank 0)\n"
"  --help               this text\n"
"Exit status: 0 success, 1 input or computation error, 2 usage error, 3 output error.\n",
        f);
}

static int size_arg(const char *name, const char *v, size_t lo, size_t hi, size_t *out,
                    char *err, size_t errlen) {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno || v[0] == '-' || x < lo || x > hi) {
        snprintf(err, errlen, "%s '%s' must be an integer in [%zu, %zu]", name, v, lo, hi);
        return -1;
    }
    *out = (size_t)x;
    return 0;
}

static int value_option(mcvar_options *o, const char *a, const char *v, char *err, size_t n) {
    const char **slot = strcmp(a, "--factors") == 0 ? &o->factors
                      : strcmp(a, "--history") == 0 ? &o->history
                      : strcmp(a, "--covariance") == 0 ? &o->covariance
                      : strcmp(a, "--positions") == 0 ? &o->positions
                      : strcmp(a, "--params") == 0 ? &o->params
                      : strcmp(a, "--out-dir") == 0 ? &o->out_dir
                      : strcmp(a, "--run-id") == 0 ? &o->run_id : NULL;
    if (slot) {
        *slot = v;
        return 0;
    }
    size_t k;
    if (strcmp(a, "--read-mode") == 0) {
        if (!gio_parse_read_mode(v, &o->read.mode)) return 0;
        return snprintf(err, n, "--read-mode '%s' is not naive, root, mpiio or two-phase", v), -1;
    }
    if (strcmp(a, "--phase2") == 0) {
        if (!gio_parse_phase2(v, &o->read.phase2)) return 0;
        return snprintf(err, n, "--phase2 '%s' is not auto, mbc or atv", v), -1;
    }
    if (strcmp(a, "--access-ranks") == 0) {
        if (size_arg(a, v, 1, 1000000, &k, err, n)) return -1;
        o->read.access_ranks = (int)k;
        return 0;
    }
    if (strcmp(a, "--buffer-size") == 0)
        return size_arg(a, v, GIO_MIN_BUFFER, (size_t)1 << 32, &o->read.buffer_size, err, n);
    if (strcmp(a, "--block-size") == 0)
        return size_arg(a, v, 1, GIO_BGZF_MAX_BLOCK, &o->block_size, err, n);
    return snprintf(err, n, "unknown option '%s' (see --help)", a), -1;
}

int options_parse(int argc, char **argv, mcvar_options *o, char *err, size_t n) {
    memset(o, 0, sizeof *o);
    gio_read_options_default(&o->read);
    o->block_size = GIO_BGZF_DEFAULT_BLOCK;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) return 1;
        if (strcmp(a, "--compress-output") == 0) { o->compress_output = 1; continue; }
        if (strcmp(a, "--timings") == 0) { o->timings = 1; continue; }
        if (i + 1 >= argc) return snprintf(err, n, "option '%s' needs a value", a), -1;
        if (value_option(o, a, argv[++i], err, n)) return -1;
    }
    if (!o->run_id) o->run_id = getenv("GANTRY_JOB_ID");
    if (!o->run_id || !o->run_id[0]) o->run_id = "local";
    if (!o->factors) return snprintf(err, n, "--factors is required"), -1;
    if (!o->history == !o->covariance)
        return snprintf(err, n, "give exactly one of --history and --covariance"), -1;
    if (!o->positions) return snprintf(err, n, "--positions is required"), -1;
    if (!o->params) return snprintf(err, n, "--params is required"), -1;
    if (!o->out_dir) return snprintf(err, n, "--out-dir is required"), -1;
    return 0;
}
