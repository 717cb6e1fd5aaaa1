/* instrument-price-worker: instrument-price as a session worker (docs/task-farms.md,
 * "Sessions"): the pricer stays loaded and each message is one position.
 *
 * Message: INSTRUMENT,QUANTITY,SPOT,RATE,STRIKE,MATURITY_YEARS,VOLATILITY (commas, no quoting;
 * a field the instrument does not use may be empty). Answer: the value with 6 decimals, or
 * "error: " and what is wrong with the message. One bad message never ends the worker. */
#include <stdio.h>
#include <string.h>

#include "instrument_value.h"
#include "line_worker.h"

static void answer(char *line, size_t len, line_out *o, void *ctx) {
  (void)len;
  (void)ctx;
  char *f[7];
  int n = 0;
  char *p = line;
  for (;;) {
    char *comma = strchr(p, ',');
    if (n < 7) f[n] = p;
    n++;
    if (!comma) break;
    *comma = '\0';
    p = comma + 1;
  }
  char out[300];
  int w;
  double value;
  char err[256];
  if (n != 7) {
    w = snprintf(out, sizeof out, "error: %d fields, 7 expected "
                 "(INSTRUMENT,QUANTITY,SPOT,RATE,STRIKE,MATURITY_YEARS,VOLATILITY)", n);
  } else if (instrument_value(f[0], (const char *const *)(f + 1), &value, err)) {
    w = snprintf(out, sizeof out, "error: %s", err);
  } else {
    w = snprintf(out, sizeof out, "%.6f", value);
  }
  line_out_add(o, out, (size_t)(w < (int)sizeof out ? w : (int)sizeof out - 1));
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "usage: instrument-price-worker (a session worker: one position per line,"
                    " INSTRUMENT,QUANTITY,SPOT,RATE,STRIKE,MATURITY_YEARS,VOLATILITY)\n");
    return 2;
  }
  return line_worker_run(answer, NULL);
}
