/* rounds: where the scenario P&L lies when a Monte Carlo run is valued in rounds that end at
 * the checkpoints (--progress, target_rse; README "Live results and the adaptive stop").
 *
 * Round j values the scenarios [end[j-1], end[j]) (end[-1] = 0), split into contiguous
 * shares over the ranks as a run without rounds splits all of them, so every rank values a
 * part of each round and the first `done` scenarios are valued at each checkpoint. Each rank
 * keeps its shares one after another in node-major rows of `capacity` doubles: its rows hold
 * its scenarios in ascending order, but not one contiguous range. Once the run has stopped,
 * rounds_redistribute moves the rows to the layout of a run of `done` scenarios without
 * rounds (rank q holds [done q / np, done (q + 1) / np)), so the statistics and
 * node_pnl.csv.gz take the same distributed path (dist_risk.h, pnl_writer.h) and give the
 * same bytes. Nothing of size n goes to one rank. */
#ifndef MCVAR_ROUNDS_H
#define MCVAR_ROUNDS_H

/* The checkpoint after `done` scenarios: base, 2 base, 3 base, 4 base and, from there, steps
 * of a quarter of `done` rounded down to a multiple of base (geometric growth, so estimating
 * at every checkpoint costs a bounded multiple of one final estimate); never beyond cap. A
 * function of base and cap alone: never of the rank count or of timing. */
long long mcvar_checkpoint_next(long long done, long long base, long long cap);

typedef struct mcvar_rounds {
    long long *end;      /* end[j]: the checkpoint that closes round j, up to the cap */
    int nrounds;         /* rounds up to the cap */
    int valued;          /* rounds valued so far */
    int np, me;
    long long capacity;  /* doubles per node row: every share up to the cap, and any final
                          * block of a stopped run */
} mcvar_rounds;

/* The rounds of a run with checkpoints every `base` scenarios (mcvar_checkpoint_next) and
 * `cap` scenarios, on rank `me` of `np`. Returns -1 when out of memory. */
int mcvar_rounds_plan(mcvar_rounds *r, long long base, long long cap, int np, int me);
void mcvar_rounds_free(mcvar_rounds *r);

/* Rank q's share [*from, *to) of round j. */
void mcvar_rounds_share(const mcvar_rounds *r, int j, int q, long long *from, long long *to);
/* Scenarios rank q holds after `rounds` rounds, and how many of them lie below scenario x. */
long long mcvar_rounds_held(const mcvar_rounds *r, int rounds, int q);
long long mcvar_rounds_held_below(const mcvar_rounds *r, int rounds, int q, long long x);

/* Collective. pnl: nnodes rows of r->capacity doubles holding this rank's shares of the
 * r->valued rounds. Afterwards pnl holds nnodes rows of hi - lo doubles, the scenarios
 * [lo, hi) = [done me / np, done (me + 1) / np) of done = end[valued - 1], as a run without
 * rounds has them. Needs two rows' worth of scratch. Returns -1 (every rank) when out of
 * memory or a transfer failed. */
int mcvar_rounds_redistribute(const mcvar_rounds *r, double *pnl, int nnodes, long long *lo,
                              long long *hi);

#endif
