/* instrument_value: see instrument_value.h. */
#include "instrument_value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing.h"

static int field(const char *name, const char *text, int needed, double *out, char *err) {
    char *end = NULL;
    if (text[0] == '\0') {
        if (!needed) return 0;
        snprintf(err, 256, "%s is needed for this instrument", name);
        return -1;
    }
    *out = strtod(text, &end);
    if (*end != '\0' || !isfinite(*out)) {
        snprintf(err, 256, "%s is not a number: '%.64s'", name, text);
        return -1;
    }
    return 0;
}

int instrument_value(const char *kind, const char *const f[6], double *value, char *err) {
    int spot_only = strcmp(kind, "spot") == 0, zcb = strcmp(kind, "zcb") == 0;
    int call = strcmp(kind, "call") == 0, put = strcmp(kind, "put") == 0;
    if (!spot_only && !zcb && !call && !put) {
        snprintf(err, 256, "unknown instrument '%.32s' (spot, zcb, call, put)", kind);
        return -1;
    }
    double q = 0, s = 0, r = 0, k = 0, t = 0, vol = 0;
    if (field("QUANTITY", f[0], 1, &q, err) || field("SPOT", f[1], !zcb, &s, err) ||
        field("RATE", f[2], !spot_only, &r, err) || field("STRIKE", f[3], call || put, &k, err) ||
        field("MATURITY_YEARS", f[4], !spot_only, &t, err) ||
        field("VOLATILITY", f[5], call || put, &vol, err))
        return -1;
    *value = spot_only ? q * s
             : zcb     ? q * exp(-r * t)
                       : q * pricer_black_scholes(call, s, k, r, vol, t);
    return 0;
}
