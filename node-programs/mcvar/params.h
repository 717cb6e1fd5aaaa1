/* params: the run parameters file (name,value rows). */
#ifndef MCVAR_PARAMS_H
#define MCVAR_PARAMS_H

#include <stdint.h>

#include "gio.h"

#define PARAMS_MAX_CONF 16

typedef enum { METHOD_MC_NORMAL, METHOD_MC_STUDENT_T, METHOD_HISTORICAL } var_method;

typedef struct params {
    long long scenarios;      /* Monte Carlo scenarios (historical: from the history) */
    int horizon_days;         /* trading days; a year is 252 */
    double confidence[PARAMS_MAX_CONF];
    int nconfidence;
    var_method method;
    double dof;               /* Student-t degrees of freedom, > 2 */
    uint64_t seed;
    int histogram_bins;
    char base_currency[4];    /* required */
    char business_date[11];   /* YYYY-MM-DD or "" */
    int lookback_days;        /* 0: the whole history */
    double ewma_lambda;       /* 0: equal weights */
    char stress_from[11], stress_to[11]; /* stressed VaR window, or "" */
    int stress_window_days;   /* > 0: search the worst window of this many dates */
    double max_move_sigmas, max_volatility, max_rate;
    int stale_days;
    int report_bad_data;      /* on_bad_data=report */
    long long checkpoint_scenarios; /* the checkpoint ladder's first step (progress.h) */
    double target_rse;        /* 0: no adaptive stop */
    int target_all_nodes;     /* target_nodes=all (else the top node only) */
} params;

void params_default(params *p);
int params_read(params *p, const char *path, const gio_read_options *o, char *err);
const char *params_method_name(var_method m);

#endif
