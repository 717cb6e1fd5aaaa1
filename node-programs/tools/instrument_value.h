/* instrument_value: today's value of one position with mcvar's own pricer, shared by
 * instrument-price (one task per position) and instrument-price-worker (a session's worker). */
#ifndef INSTRUMENT_VALUE_H
#define INSTRUMENT_VALUE_H

/* fields: QUANTITY SPOT RATE STRIKE MATURITY_YEARS VOLATILITY as text; an empty field is an SQL
 * NULL, allowed where the instrument does not use it. Returns 0 with *value set, or -1 with a
 * message in err (size 256). */
int instrument_value(const char *kind, const char *const fields[6], double *value, char *err);

#endif
