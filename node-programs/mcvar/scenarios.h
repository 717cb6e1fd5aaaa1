/* scenarios: factor log returns over the horizon for a scenario index.
 *   mc-normal:    x = sqrt(h) L z, z standard normal (zero drift);
 *   mc-student-t: x = sqrt(h) L z sqrt((dof-2)/chi2_dof), one chi2 per scenario, so each
 *                 factor has the covariance's variance and the tails of a Student t;
 *   historical:   x = log(H[s+h] / H[s]) over overlapping h-day windows of the history.
 * Blocks are factor-major: x[f * stride + b] for scenario column b. */
#ifndef MCVAR_SCENARIOS_H
#define MCVAR_SCENARIOS_H

#include "market.h"
#include "params.h"

typedef struct scenario_gen {
    const market *m;
    const params *p;
    double sqrt_h;
    double *z; /* n normals, scratch */
} scenario_gen;

int scenarios_init(scenario_gen *g, const market *m, const params *p);
void scenarios_free(scenario_gen *g);
long long scenarios_count(const scenario_gen *g);
/* Fills columns 0..count-1 with scenarios idx ? idx[b] : first + b: log returns into x and
 * scenario levels (level * exp(x)) into lev. */
void scenarios_fill(scenario_gen *g, long long first, const long long *idx, int count,
                    int stride, double *x, double *lev);

#endif
