/* instrument-price: today's value of one position, priced with mcvar's own pricer, as one task of
 * a task farm (docs/task-farms.md: each instrument of a portfolio priced as its own task).
 *
 *   instrument-price INSTRUMENT QUANTITY SPOT RATE STRIKE MATURITY_YEARS VOLATILITY
 *
 * INSTRUMENT is spot (quantity x spot), zcb (quantity x exp(-rate x maturity)), call or put
 * (quantity x Black-Scholes). Fields an instrument does not use may be empty, as SQL NULLs are in
 * a staged CSV. Prints the value with 6 decimals and no newline (it is a task's output string,
 * loaded into SQL as a number); a bad field is a message on stderr and exit status 2. */
#include <stdio.h>

#include "instrument_value.h"

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: instrument-price INSTRUMENT QUANTITY SPOT RATE STRIKE "
                        "MATURITY_YEARS VOLATILITY\n");
        return 2;
    }
    const char *const fields[6] = {argv[2], argv[3], argv[4], argv[5], argv[6], argv[7]};
    char err[256];
    double value;
    if (instrument_value(argv[1], fields, &value, err)) {
        fprintf(stderr, "instrument-price: %s\n", err);
        return 2;
    }
    printf("%.6f", value);
    return 0;
}
