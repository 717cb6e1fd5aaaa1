/* params.c: reads and checks run parameters; each limit is named in its message. An
 * unknown name is refused: a misspelt "scenario" or "confidence_level" would otherwise leave
 * the default in force and give a plausible but wrong VaR. */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "inputs.h"
#include "market.h"

void params_default(params *p) {
    memset(p, 0, sizeof *p);
    p->scenarios = 10000;
    p->horizon_days = 1;
    p->confidence[0] = 0.95;
    p->confidence[1] = 0.99;
    p->nconfidence = 2;
    p->method = METHOD_MC_NORMAL;
    p->dof = 5;
    p->seed = 1;
    p->histogram_bins = 50;
    p->max_move_sigmas = 10;
    p->stale_days = 10;
    p->max_volatility = 3.0;
    p->max_rate = 0.5;
    p->checkpoint_scenarios = 1000;
}

const char *params_method_name(var_method m) {
    return m == METHOD_MC_NORMAL ? "mc-normal" : m == METHOD_MC_STUDENT_T ? "mc-student-t"
                                                                          : "historical";
}

static int integer(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int confidence_list(params *p, char *s, char *err) {
    p->nconfidence = 0;
    for (char *tok = strtok(s, ";"); tok; tok = strtok(NULL, ";")) {
        double c;
        if (p->nconfidence == PARAMS_MAX_CONF)
            return snprintf(err, 256, "confidence_levels: at most %d levels", PARAMS_MAX_CONF), -1;
        if (csv_number(tok, &c) || !(c > 0 && c < 1))
            return snprintf(err, 256, "confidence_levels: '%s' is not in (0, 1)", tok), -1;
        p->confidence[p->nconfidence++] = c;
    }
    if (p->nconfidence == 0) return snprintf(err, 256, "confidence_levels is empty"), -1;
    /* ascending, so every result file lists a node's levels in one order */
    for (int i = 1; i < p->nconfidence; i++)
        for (int j = i; j > 0 && p->confidence[j] < p->confidence[j - 1]; j--) {
            double t = p->confidence[j];
            p->confidence[j] = p->confidence[j - 1];
            p->confidence[j - 1] = t;
        }
    for (int i = 1; i < p->nconfidence; i++)
        if (p->confidence[i] == p->confidence[i - 1])
            return snprintf(err, 256, "confidence_levels: %.15g is given twice", p->confidence[i]), -1;
    return 0;
}

static int param_row(void *ctx, char **c, char *err) {
    params *p = ctx;
    const char *name = c[0];
    char *v = c[1];
    long long i;
    if (strcmp(name, "scenarios") == 0) {
        if (integer(v, 1, 1000000000LL, &i))
            return snprintf(err, 256, "scenarios '%s' must be an integer in [1, 1e9]", v), -1;
        p->scenarios = i;
    } else if (strcmp(name, "horizon_days") == 0) {
        if (integer(v, 1, 2520, &i))
            return snprintf(err, 256, "horizon_days '%s' must be an integer in [1, 2520]", v), -1;
        p->horizon_days = (int)i;
    } else if (strcmp(name, "confidence_levels") == 0) {
        return confidence_list(p, v, err);
    } else if (strcmp(name, "method") == 0) {
        if (strcmp(v, "mc-normal") == 0) p->method = METHOD_MC_NORMAL;
        else if (strcmp(v, "mc-student-t") == 0) p->method = METHOD_MC_STUDENT_T;
        else if (strcmp(v, "historical") == 0) p->method = METHOD_HISTORICAL;
        else return snprintf(err, 256, "method '%s' is not mc-normal, mc-student-t or historical", v), -1;
    } else if (strcmp(name, "dof") == 0) {
        double d;
        if (csv_number(v, &d) || !(d > 2) || d > 1e6)
            return snprintf(err, 256, "dof '%s' must be a number in (2, 1e6]", v), -1;
        p->dof = d;
    } else if (strcmp(name, "seed") == 0) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(v, &end, 10);
        if (end == v || *end || errno || v[0] == '-')
            return snprintf(err, 256, "seed '%s' must be a non-negative integer", v), -1;
        p->seed = s;
    } else if (strcmp(name, "histogram_bins") == 0) {
        if (integer(v, 1, 100000, &i))
            return snprintf(err, 256, "histogram_bins '%s' must be an integer in [1, 100000]", v), -1;
        p->histogram_bins = (int)i;
    } else if (strcmp(name, "base_currency") == 0) {
        if (strlen(v) != 3 || v[0] < 'A' || v[0] > 'Z' || v[1] < 'A' || v[1] > 'Z' || v[2] < 'A' || v[2] > 'Z')
            return snprintf(err, 256, "base_currency '%s' is not an ISO code such as USD", v), -1;
        memcpy(p->base_currency, v, 4);
    } else if (strcmp(name, "business_date") == 0 || strcmp(name, "stress_from") == 0 ||
               strcmp(name, "stress_to") == 0) {
        if (!v[0] && name[0] == 's') return 0;
        if (!market_valid_date(v))
            return snprintf(err, 256, "%s '%s' is not a calendar date YYYY-MM-DD", name, v), -1;
        memcpy(name[0] == 'b' ? p->business_date : name[7] == 'f' ? p->stress_from : p->stress_to, v, 11);
    } else if (strcmp(name, "lookback_days") == 0) {
        if (integer(v, 0, 1000000, &i))
            return snprintf(err, 256, "lookback_days '%s' must be an integer >= 0", v), -1;
        p->lookback_days = (int)i;
    } else if (strcmp(name, "stress_window_days") == 0) {
        if (!v[0]) return 0;
        if (integer(v, 2, 1000000, &i))
            return snprintf(err, 256, "stress_window_days '%s' must be an integer >= 2", v), -1;
        p->stress_window_days = (int)i;
    } else if (strcmp(name, "ewma_lambda") == 0) {
        double d;
        if (!v[0]) return p->ewma_lambda = 0, 0;
        if (csv_number(v, &d) || !(d > 0 && d < 1))
            return snprintf(err, 256, "ewma_lambda '%s' must be in (0, 1)", v), -1;
        p->ewma_lambda = d;
    } else if (strcmp(name, "max_move_sigmas") == 0 || strcmp(name, "max_volatility") == 0 ||
               strcmp(name, "max_rate") == 0) {
        double d;
        if (csv_number(v, &d) || !(d > 0))
            return snprintf(err, 256, "%s '%s' must be a positive number", name, v), -1;
        *(name[4] == 'm' ? &p->max_move_sigmas : name[4] == 'v' ? &p->max_volatility : &p->max_rate) = d;
    } else if (strcmp(name, "stale_days") == 0) {
        if (integer(v, 2, 1000000, &i))
            return snprintf(err, 256, "stale_days '%s' must be an integer >= 2", v), -1;
        p->stale_days = (int)i;
    } else if (strcmp(name, "on_bad_data") == 0) {
        if (strcmp(v, "refuse") == 0) p->report_bad_data = 0;
        else if (strcmp(v, "report") == 0) p->report_bad_data = 1;
        else return snprintf(err, 256, "on_bad_data '%s' is not refuse or report", v), -1;
    } else if (strcmp(name, "checkpoint_scenarios") == 0) {
        if (integer(v, 1, 1000000000LL, &i))
            return snprintf(err, 256, "checkpoint_scenarios '%s' must be an integer in [1, 1e9]", v), -1;
        p->checkpoint_scenarios = i;
    } else if (strcmp(name, "target_rse") == 0) {
        double d;
        if (!v[0]) return p->target_rse = 0, 0;
        if (csv_number(v, &d) || !(d > 0 && d < 1))
            return snprintf(err, 256, "target_rse '%s' must be in (0, 1) (0.005 = 0.5%%)", v), -1;
        p->target_rse = d;
    } else if (strcmp(name, "target_nodes") == 0) {
        if (strcmp(v, "top") == 0) p->target_all_nodes = 0;
        else if (strcmp(v, "all") == 0) p->target_all_nodes = 1;
        else return snprintf(err, 256, "target_nodes '%s' is not top or all", v), -1;
    } else {
        return snprintf(err, 256, "unknown parameter '%s' (known: base_currency, business_date, "
                                  "scenarios, horizon_days, confidence_levels, method, dof, seed, "
                                  "histogram_bins, lookback_days, ewma_lambda, stress_from, "
                                  "stress_to, stress_window_days, max_move_sigmas, stale_days, "
                                  "max_volatility, max_rate, on_bad_data, checkpoint_scenarios, target_rse, "
                                  "target_nodes)", name), -1;
    }
    return 0;
}

int params_read(params *p, const char *path, const gio_read_options *o, char *err) {
    static const char *const cols[] = {"name", "value"};
    if (inputs_read_table(path, o, cols, 2, param_row, p, err)) return -1;
    if (!p->base_currency[0])
        return snprintf(err, MCVAR_ERRLEN, "%s: parameter base_currency is missing (the "
                        "currency every result is in, e.g. USD)", path), -1;
    if (!p->stress_from[0] != !p->stress_to[0])
        return snprintf(err, MCVAR_ERRLEN, "%s: stress_from and stress_to go together", path), -1;
    if (p->stress_from[0] && strcmp(p->stress_from, p->stress_to) >= 0)
        return snprintf(err, MCVAR_ERRLEN, "%s: stress_from %s is not before stress_to %s", path,
                        p->stress_from, p->stress_to), -1;
    if (p->stress_from[0] && p->stress_window_days)
        return snprintf(err, MCVAR_ERRLEN, "%s: give stress_from/stress_to or stress_window_days, "
                        "not both", path), -1;
    return 0;
}
