/* positions: the book, one structure of arrays in canonical order (by node, then position
 * id), checked against the market on load; the node hierarchy; the currency conversion
 * paths into the base currency. */
#ifndef MCVAR_POSITIONS_H
#define MCVAR_POSITIONS_H

#include "gio.h"
#include "market.h"

typedef enum { INSTR_SPOT, INSTR_CASH, INSTR_ZCB, INSTR_FX_FORWARD, INSTR_CALL, INSTR_PUT } instrument;

#define BOOK_MAX_PATH 2 /* conversion hops */

/* A currency's value in base = product of lev[factor[h]]^sign[h] over its hops. */
typedef struct currency_path {
    char code[4];
    int hops, factor[BOOK_MAX_PATH], sign[BOOK_MAX_PATH];
} currency_path;

typedef struct book {
    int n, cap;
    char **id;
    instrument *type;
    int *node;            /* node index */
    int *ccy;             /* currency index; 0 = base */
    int *factor, *rate;   /* factor indices, -1 when none */
    int *rate2;           /* curve: the upper tenor point (rate2 = rate when not on a curve) */
    double *rate_w;       /* curve: weight of rate2 */
    int *frate, *volf;    /* foreign rate, vol factor; -1 when none */
    double *quantity, *strike, *maturity, *vol;
    /* hierarchy: nodes sorted by path, so a parent comes before its descendants */
    int nnodes;
    char **node_path;
    int *parent;          /* -1 for the top node */
    int *own;             /* positions directly on the node */
    int *nchildren;
    /* currencies: 0 = base */
    int nccy;
    currency_path *cur;
} book;

void book_init(book *b);
void book_free(book *b);
/* Reads positions (any row order) and puts them in canonical order. */
int book_read(book *b, const market *m, const char *base_currency, const char *path,
              const gio_read_options *o, char *err);
/* node_pnl[node * stride + b]: each node's own P&L on entry; every node's total (own plus
 * all descendants) on return. */
void book_roll_up(const book *b, double *node_pnl, int stride, int count);
int book_node_depth(const book *b, int node);

#endif
