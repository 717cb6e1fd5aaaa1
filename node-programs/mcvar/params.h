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
} params;

void params_default(params *p);
int params_read(params *p, const char *path, const gio_read_options *o, char *err);
const char *params_method_name(var_method m);

#endif
