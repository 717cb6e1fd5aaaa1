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
    } else {
        return snprintf(err, 256, "unknown parameter '%s' (known: scenarios, horizon_days, "
                                  "confidence_levels, method, dof, seed, histogram_bins)", name), -1;
    }
    return 0;
}

int params_read(params *p, const char *path, const gio_read_options *o, char *err) {
    static const char *const cols[] = {"name", "value"};
    return inputs_read_table(path, o, cols, 2, param_row, p, err);
}
