/* instrument-price: today's value of one position, priced with mcvar's own pricer, as one task of
 * a task farm (docs/task-farms.md: each instrument of a portfolio priced as its own task).
 *
 *   instrument-price INSTRUMENT QUANTITY SPOT RATE STRIKE MATURITY_YEARS VOLATILITY
 *
 * INSTRUMENT is spot (quantity x spot), zcb (quantity x exp(-rate x maturity)), call or put
 * (quantity x Black-Scholes). Fields an instrument does not use may be empty, as SQL NULLs are in
 * a staged CSV. Prints the value with 6 decimals and no newline (it is a task's output string,
 * loaded into SQL as a number); a bad field is a message on stderr and exit status 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing.h"

static int field(const char *name, const char *text, int needed, double *out) {
    char *end = NULL;
    if (text[0] == '\0') {
        if (!needed) return 0;
        fprintf(stderr, "instrument-price: %s is needed for this instrument\n", name);
        return -1;
    }
    *out = strtod(text, &end);
    if (*end != '\0' || !isfinite(*out)) {
        fprintf(stderr, "instrument-price: %s is not a number: '%s'\n", name, text);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: instrument-price INSTRUMENT QUANTITY SPOT RATE STRIKE "
                        "MATURITY_YEARS VOLATILITY\n");
        return 2;
    }
    const char *kind = argv[1];
    int spot_only = strcmp(kind, "spot") == 0, zcb = strcmp(kind, "zcb") == 0;
    int call = strcmp(kind, "call") == 0, put = strcmp(kind, "put") == 0;
    if (!spot_only && !zcb && !call && !put) {
        fprintf(stderr, "instrument-price: unknown instrument '%s' (spot, zcb, call, put)\n", kind);
        return 2;
    }
    double q = 0, s = 0, r = 0, k = 0, t = 0, vol = 0;
    if (field("QUANTITY", argv[2], 1, &q) || field("SPOT", argv[3], !zcb, &s) ||
        field("RATE", argv[4], !spot_only, &r) || field("STRIKE", argv[5], call || put, &k) ||
        field("MATURITY_YEARS", argv[6], !spot_only, &t) ||
        field("VOLATILITY", argv[7], call || put, &vol))
        return 2;
    double value = spot_only ? q * s
                   : zcb     ? q * exp(-r * t)
                             : q * pricer_black_scholes(call, s, k, r, vol, t);
    printf("%.6f", value);
    return 0;
}
