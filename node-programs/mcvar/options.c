/* options.c: parses and checks mcvar's options; --help documents every input's columns. */
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

void options_help(FILE *f) {
    fputs(
"usage: mcvar --factors F (--history F | --covariance F) --positions F --params F\n"
"             --out-dir DIR [--run-id ID] [--what-if NEW_POSITIONS]\n"
"             [--read-mode naive|root|mpiio|two-phase] [--access-ranks K]\n"
"             [--phase2 auto|mbc|atv] [--buffer-size BYTES] [--compress-output]\n"
"             [--block-size BYTES] [--timings] [--progress FILE] [--target-rse R]\n"
"             [--follow-inputs NAME,...] [--follow-timeout SECONDS]\n"
"             [--scenarios-in FILE] [--node-pnl-stdout]\n"
"       mcvar --factors F (--history F | --covariance F) --params F --scenarios-out FILE\n"
"       mcvar --params F --aggregate NODE_PNL,... --out-dir DIR [--run-id ID]\n"
"\n"
"Monte Carlo (normal or Student-t) or historical-simulation Value-at-Risk and expected\n"
"shortfall of every node of a book hierarchy, in one base currency, on common scenarios,\n"
"run under mpirun. Results are identical for any number of ranks and any row order.\n"
"\n"
"Inputs: CSV with a header row; columns are found by name, extra columns ignored, rows in\n"
"any order, empty fields are NULL. Each file may be plain or blocked gzip (BGZF, found by\n"
"its magic bytes). A bad row stops the run with FILE:LINE: what is wrong.\n"
"  --factors     factor_id,kind,level,currency,quote,return_type,shift,curve,tenor_years\n"
"                kind: equity, fx, rate, vol (implied volatility, 0.2 = 20%) or another\n"
"                name (like equity). currency: ISO code (not for vol). fx: quote BASEQUOTE\n"
"                (USDJPY 151.2 = JPY per USD), currency = the quote currency. rate:\n"
"                continuously compounded zero rate; curve, tenor_years place it on a curve.\n"
"                return_type: log (default; equity, fx, vol), absolute (default for rate:\n"
"                rates may go negative), relative, shifted-log (needs shift > 0).\n"
"  --history     as_of,factor_id,level   (as_of a calendar date YYYY-MM-DD; every date\n"
"                needs every factor; at least 3 dates; ends at business_date). Used to\n"
"                estimate the covariance of daily returns, or replayed by method historical.\n"
"  --covariance  factor_i,factor_j,covariance   (of daily returns; every pair, either\n"
"                order; the matrix must be positive semidefinite)\n"
"  --positions   position_id,node,instrument,factor_id,rate_factor_id,\n"
"                foreign_rate_factor_id,vol_factor_id,curve,currency,quantity,strike,\n"
"                maturity_years,volatility\n"
"                node: path from the top, e.g. BANK/LE-US/EQ-DESK (one top for all).\n"
"                instrument spot: quantity units of factor_id (fx: of the pair's base\n"
"                     currency, worth quantity x level in the quote currency);\n"
"                cash: quantity units of currency;\n"
"                zcb: pays quantity at maturity_years, discounted at rate_factor_id or on\n"
"                     curve (linear in tenor);\n"
"                fx-forward: buys quantity of the pair's base currency at strike (quote\n"
"                     per base); rate_factor_id (quote) and foreign_rate_factor_id (base);\n"
"                call, put: European, Black-Scholes on an equity, Garman-Kohlhagen on an fx\n"
"                     factor (foreign_rate_factor_id required); discounted at\n"
"                     rate_factor_id; volatility from vol_factor_id, else volatility.\n"
"                currency, if given, must be the instrument's own. Values are converted to\n"
"                base_currency at each scenario's fx levels (at most two fx hops).\n"
"                position_id is unique.\n"
"  --params      name,value with names\n"
"                base_currency (required), business_date (YYYY-MM-DD), scenarios (default\n"
"                10000; Monte Carlo only), horizon_days (1; a year is 252 trading days),\n"
"                confidence_levels (0.95;0.99), method (mc-normal, mc-student-t,\n"
"                historical), dof (5, > 2), seed (1), histogram_bins (50), lookback_days\n"
"                (0 = all history), ewma_lambda (empty = equal weights), stress_from and\n"
"                stress_to (stressed VaR on that window, historical) or stress_window_days\n"
"                (search the worst window), checks max_move_sigmas (10), stale_days (10),\n"
"                max_volatility (3.0), max_rate (0.5), on_bad_data (refuse | report),\n"
"                checkpoint_scenarios (1000: the first checkpoint; then every 1000 up to\n"
"                4000, then steps of a quarter of the scenarios done, rounded down to a\n"
"                multiple of it), target_rse (empty; e.g. 0.005: stop at the first\n"
"                checkpoint where VaR and ES at every confidence have var_stderr/var and\n"
"                es_stderr/es at most this; Monte Carlo only), target_nodes (top | all).\n"
"                Any other name is refused (FILE:LINE names it).\n"
"\n"
"Outputs in --out-dir (written under temporary names, renamed when every rank succeeded;\n"
"an earlier run's results there are removed first, so a failed run leaves none). Every\n"
"row starts with run_id,business_date; node is the full path:\n"
"  var_summary.csv        node,confidence,var,expected_shortfall,var_stderr,es_stderr,\n"
"                         pnl_mean,pnl_stddev,scenarios,diversification_var,\n"
"                         diversification_es   (positive losses; ES weights the boundary\n"
"                         scenario; standard errors for Monte Carlo runs)\n"
"  pnl_distribution.csv   node,bin,lower,upper,count   (equal-width histogram, bin from 0)\n"
"  contributions.csv      node,position_id,confidence,var_contribution,es_contribution,\n"
"                         marginal_var   (Euler; to the position's node and the top)\n"
"  node_contributions.csv node,child_node,confidence,var_contribution,es_contribution\n"
"  tail_scenarios.csv     node,confidence,rank,scenario,from_date,to_date,pnl (historical)\n"
"  run.csv                method,horizon_days,scenarios,seed,lookback_days,ewma_lambda,\n"
"                         base_currency,confidence_levels,program_version,stress_from,\n"
"                         stress_to\n"
"  run_inputs.csv         input,file_name,sha256   (of each input file's bytes)\n"
"  data_quality.csv       file,line,factor_id,check,value,action   (on_bad_data=report)\n"
"  node_pnl.csv.gz        scenario,<node>,...   every node's P&L per scenario (blocked gzip)\n"
"  stopping.csv           target_rse,scenario_cap,scenarios,target_reached,node,confidence,\n"
"                         var,var_stderr,var_rse,expected_shortfall,es_stderr,es_rse\n"
"                         (target_rse runs only: where the run stopped, the achieved error)\n"
"  With --compress-output the names end in .gz and the files are blocked gzip.\n"
"  what_if.csv (--what-if) node,confidence,var_before,var_after,incremental_var,es_before,\n"
"                         es_after,incremental_es\n"
"\n"
"Options:\n"
"  --run-id ID          run id in every output row (default $GANTRY_JOB_ID, else local)\n"
"  --what-if FILE       new trades (positions columns): revalue only them on the base run's\n"
"                       scenarios (node_pnl.csv.gz in --out-dir, same other inputs) and\n"
"                       write what_if.csv for every node they touch\n"
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
"  --progress FILE      publish every checkpoint's VaR and ES of every node with their\n"
"                       standard errors in FILE (CSV done,total,unit,figure,value,stderr;\n"
"                       replaced atomically; Monte Carlo only; results unchanged)\n"
"  --target-rse R       the target_rse parameter (overrides the params file)\n"
"  --follow-inputs L    read the inputs named in L (comma-separated: params, factors,\n"
"                       history, covariance, positions) while their producer writes them:\n"
"                       a blocked gzip file is read as it grows, to its end-of-file block;\n"
"                       a FIFO to its end; a file not there yet is waited for. Rank 0 reads\n"
"                       them and sends their lines to the other ranks; results are those of\n"
"                       the complete files. A plain regular file cannot be followed\n"
"  --follow-timeout S   a followed input bringing no new byte for S seconds is an error\n"
"                       naming it (default 600)\n"
"  --follow-inputs also takes scenarios (the --scenarios-in file).\n"
"\n"
"A run in stages (a chain's scenario generation, a pricing stage per desk, aggregation);\n"
"the aggregate's files are byte-identical to the one-program run's on the whole book:\n"
"  --scenarios-out FILE write the run's scenarios (FILE - : standard output; blocked gzip\n"
"                       CSV scenario,<factor_id>,...:\n"
"                       each factor's return over the horizon, %.17g, canonical factor\n"
"                       order; the same for any number of ranks: rank 0 writes them) and\n"
"                       stop. Needs --factors, --history or --covariance, --params; written\n"
"                       under its own name as generated, so a consumer can follow it\n"
"  --scenarios-in FILE  price --positions (e.g. one desk's) on the scenarios of FILE instead\n"
"                       of generating them: every output is that of the one-program run on\n"
"                       the same inputs (the same factors, history or covariance, params)\n"
"  --aggregate L        read the node_pnl.csv.gz files in L (comma-separated; runs on\n"
"                       --scenarios-in of parts of one book that hold each position once),\n"
"                       roll them up the hierarchy and write var_summary, pnl_distribution,\n"
"                       node_contributions, run, run_inputs (node_pnl_1, ...) and\n"
"                       node_pnl.csv.gz of every node (contributions.csv and\n"
"                       tail_scenarios.csv need the positions: the desks' runs have them).\n"
"                       A node split across files must hold no positions of its own\n"
"                       (checked)\n"
"  --node-pnl-stdout    also copy node_pnl.csv.gz to standard output once the run succeeded\n"
"                       (a chain stage hands on its standard output: docs/workflows.md)\n"
"  Not with target_rse or stress_window_days (each part would stop, or search, alone).\n"
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
                      : strcmp(a, "--run-id") == 0 ? &o->run_id
                      : strcmp(a, "--what-if") == 0 ? &o->what_if
                      : strcmp(a, "--progress") == 0 ? &o->progress
                      : strcmp(a, "--scenarios-out") == 0 ? &o->scenarios_out
                      : strcmp(a, "--scenarios-in") == 0 ? &o->scenarios_in
                      : strcmp(a, "--aggregate") == 0 ? &o->aggregate
                      : strcmp(a, "--follow-inputs") == 0 ? &o->follow_inputs : NULL;
    if (slot) {
        *slot = v;
        return 0;
    }
    size_t k;
    if (strcmp(a, "--target-rse") == 0) {
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        if (end == v || *end || errno || !(d > 0 && d < 1))
            return snprintf(err, n, "--target-rse '%s' must be in (0, 1) (0.005 = 0.5%%)", v), -1;
        o->target_rse = d;
        return 0;
    }
    if (strcmp(a, "--follow-timeout") == 0) {
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        if (end == v || *end || errno || !(d > 0 && d <= 1e7))
            return snprintf(err, n, "--follow-timeout '%s' must be seconds > 0", v), -1;
        o->follow_timeout = d;
        return 0;
    }
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

/* Each name of --follow-inputs must be an input that was given; inputs.c follows its path. */
static int follow_inputs(const mcvar_options *o, char *err, size_t n) {
    const char *names[] = {"params", "factors", "history", "covariance", "positions", "scenarios"};
    const char *paths[] = {o->params, o->factors, o->history, o->covariance, o->positions,
                           o->scenarios_in};
    char list[256];
    if (snprintf(list, sizeof list, "%s", o->follow_inputs) >= (int)sizeof list)
        return snprintf(err, n, "--follow-inputs is too long"), -1;
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < 6 && strcmp(name, names[i]) != 0) i++;
        if (i == 6)
            return snprintf(err, n, "--follow-inputs: '%s' is not params, factors, history, "
                            "covariance, positions or scenarios", name), -1;
        if (!paths[i]) return snprintf(err, n, "--follow-inputs names %s, which is not given", name), -1;
        if (inputs_follow(paths[i], o->follow_timeout))
            return snprintf(err, n, "--follow-inputs: too many inputs"), -1;
    }
    return 0;
}

/* A run in stages (README): --scenarios-out, --scenarios-in and --aggregate are each a step
 * of its own, and --aggregate reads nothing but its node P&L files and --params. */
static int staged_modes(const mcvar_options *o, char *err, size_t n) {
    const char *modes[] = {"--scenarios-out", "--scenarios-in", "--aggregate", "--what-if"};
    const char *given[] = {o->scenarios_out, o->scenarios_in, o->aggregate, o->what_if};
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (given[i] && given[j])
                return snprintf(err, n, "%s and %s are separate steps: give one", modes[i],
                                modes[j]), -1;
    if (o->scenarios_out && (o->positions || o->out_dir || o->progress || o->target_rse > 0))
        return snprintf(err, n, "--scenarios-out writes only the scenarios: no --positions, "
                        "--out-dir, --progress or --target-rse"), -1;
    if (o->aggregate && (o->factors || o->history || o->covariance || o->positions ||
                         o->progress || o->target_rse > 0 || o->follow_inputs))
        return snprintf(err, n, "--aggregate reads only --params and the node P&L files: no "
                        "--factors, --history, --covariance, --positions, --progress, "
                        "--target-rse or --follow-inputs"), -1;
    if (o->node_pnl_stdout && (o->timings || o->what_if || o->scenarios_out))
        return snprintf(err, n, "--node-pnl-stdout is the only output on standard output: not "
                        "with --timings, --what-if or --scenarios-out"), -1;
    if (o->scenarios_in && o->target_rse > 0)
        return snprintf(err, n, "--target-rse cannot stop a part of the book priced on "
                        "--scenarios-in (each part would stop at its own checkpoint): stop the "
                        "one-program run instead"), -1;
    return 0;
}

int options_parse(int argc, char **argv, mcvar_options *o, char *err, size_t n) {
    memset(o, 0, sizeof *o);
    gio_read_options_default(&o->read);
    o->block_size = GIO_BGZF_DEFAULT_BLOCK;
    o->follow_timeout = 600;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) return 1;
        if (strcmp(a, "--compress-output") == 0) { o->compress_output = 1; continue; }
        if (strcmp(a, "--timings") == 0) { o->timings = 1; continue; }
        if (strcmp(a, "--node-pnl-stdout") == 0) { o->node_pnl_stdout = 1; continue; }
        if (i + 1 >= argc) return snprintf(err, n, "option '%s' needs a value", a), -1;
        if (value_option(o, a, argv[++i], err, n)) return -1;
    }
    if (!o->run_id) o->run_id = getenv("GANTRY_JOB_ID");
    if (!o->run_id || !o->run_id[0]) o->run_id = "local";
    if (staged_modes(o, err, n)) return -1;
    if (!o->params) return snprintf(err, n, "--params is required"), -1;
    if (o->aggregate) return o->out_dir ? 0 : (snprintf(err, n, "--out-dir is required"), -1);
    if (!o->factors) return snprintf(err, n, "--factors is required"), -1;
    if (!o->history == !o->covariance)
        return snprintf(err, n, "give exactly one of --history and --covariance"), -1;
    if (o->scenarios_out) return o->follow_inputs ? follow_inputs(o, err, n) : 0;
    if (!o->positions) return snprintf(err, n, "--positions is required"), -1;
    if (!o->out_dir) return snprintf(err, n, "--out-dir is required"), -1;
    return o->follow_inputs ? follow_inputs(o, err, n) : 0;
}
