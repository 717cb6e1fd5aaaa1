/* aggregate: the hierarchy's P&L from the node P&L of books priced apart (mcvar
 * --aggregate; README "A run in stages"). Each file is a node_pnl.csv.gz of an mcvar run on
 * one part of the book (a desk), on the same scenarios; together they hold every position
 * once.
 *
 * The union of the files' nodes is the whole book's hierarchy (each run's hierarchy holds
 * every prefix of its positions' paths). A node that lies in one file together with every
 * node under it is taken from that file: that run summed its positions and rolled its
 * children up exactly as the one-program run does. Any other node is rolled up here as
 * book_roll_up does (0, then each child's total in descending hierarchy order), which is
 * exact when the node holds no positions of its own; that is checked in every file holding
 * it (its column there must be its children's roll-up, bit for bit), and refused naming the
 * node otherwise. So the result is bit-identical to the one-program run on the whole book. */
#ifndef MCVAR_AGGREGATE_H
#define MCVAR_AGGREGATE_H

#include "positions.h"
#include "risk.h"

/* Every rank reads the files of the comma-separated list `files` (plain POSIX reads) and
 * gets the hierarchy in b (node_path, parent, nchildren, own zero; no positions), the
 * scenario count in *n and every node's P&L for its share [lo, hi) of the scenarios in
 * *local (node-major, hi - lo per node; the same split as mcvar's). Returns 0 or -1 with a
 * message in err (MCVAR_ERRLEN). */
int aggregate_read(const char *files, int rank, int ranks, book *b, long long *n,
                   long long *lo, long long *hi, double **local, char *err);

/* Each child node's Euler contributions to its parent's VaR and ES (nlevels x nodes), from
 * the parent's tail rows (dist_risk.h). Shared by the one-program run and the aggregate. */
void aggregate_child_contributions(const book *b, const risk_summary *rs, double *child_var,
                                   double *child_es);

#endif
