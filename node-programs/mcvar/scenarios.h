/* scenarios: factor returns over the horizon for a scenario index (each factor's own return
 * type, README "Model").
 *   mc-normal:    x = sqrt(h) L z, z_f the standard normal keyed by factor f's id hash;
 *   mc-student-t: x = sqrt(h) L z sqrt((dof-2)/chi2_dof), one chi2 per scenario;
 *   historical:   x = return(H[s], H[s+h]) over overlapping h-day windows of the dates
 *                 [first_date, first_date + ndates) of the history (a stress window).
 * Blocks are factor-major: x[f * stride + b] for scenario column b. */
#ifndef MCVAR_SCENARIOS_H
#define MCVAR_SCENARIOS_H

#include "market.h"
#include "params.h"

typedef struct scenario_gen {
    const market *m;
    const params *p;
    double sqrt_h;
    int first_date, ndates; /* historical: the window of dates replayed */
} scenario_gen;

int scenarios_init(scenario_gen *g, const market *m, const params *p);
void scenarios_free(scenario_gen *g);
long long scenarios_count(const scenario_gen *g);
/* Fills columns 0..count-1 with scenarios idx ? idx[b] : first + b: returns into x and
 * scenario levels into lev. */
void scenarios_fill(scenario_gen *g, long long first, const long long *idx, int count,
                    int stride, double *x, double *lev);

/* The scenario levels of returns x (the part of scenarios_fill after the returns): used
 * alone for returns read from a scenario file (scenario_file.h). */
void scenarios_levels(const market *m, const double *x, int count, int stride, double *lev);

#endif
