/* whatif: pre-deal what-if. Reads the base run's per-scenario node P&L (node_pnl.csv.gz in
 * the output directory), revalues only the new trades on the same scenarios (regenerated from
 * their indices: the same random streams or history windows as the base run), adds their
 * P&L to their nodes and every ancestor, and reports for each node the new trades touch its
 * VaR and ES before and after (what_if.csv). */
#ifndef MCVAR_WHATIF_H
#define MCVAR_WHATIF_H

#include "market.h"
#include "options.h"
#include "params.h"
#include "positions.h"
#include "pricing.h"
#include "report.h"
#include "scenarios.h"

typedef struct whatif_inputs {
    const mcvar_options *o;
    const params *p;
    const market *m;
    const book *b; /* the new trades */
    scenario_gen *g;
    const pricer *pr;
    long long n;
} whatif_inputs;

int whatif_run(const whatif_inputs *in, report *rep, char *err);

#endif
