/* quality: the checks a risk manager runs on market data before trusting a VaR (README,
 * "Input checks"): a daily move beyond max_move_sigmas robust standard deviations (today's
 * level against the history's last one is held to the same test), a series
 * unchanged for stale_days days, a volatility above max_volatility or a rate above max_rate
 * in absolute value (a units slip: 20 for 20%). With on_bad_data=refuse the first finding
 * stops the run with file:line and the value; with report every finding becomes a row of
 * data_quality.csv and the run goes on. */
#ifndef MCVAR_QUALITY_H
#define MCVAR_QUALITY_H

#include "market.h"
#include "params.h"
#include "report.h"

typedef struct quality {
    dq_row *rows;
    int n, cap;
} quality;

int quality_check(quality *q, const market *m, const params *p, const char *factors_path,
                  const char *history_path, char *err);
void quality_free(quality *q);

#endif
