/* bt_input: var-backtest's two input files (CSV, plain or blocked gzip, read through gio), checked
 * row by row; every refusal is "FILE:LINE: what". */
#ifndef BT_INPUT_H
#define BT_INPUT_H

#include <stddef.h>

#define BT_ERRLEN 1024

/* One VaR figure: the VaR of `date` (a loss as a positive number, as mcvar writes it). */
typedef struct bt_var_row {
    char date[11];
    char *node;
    char conf_text[32]; /* as written, for the outputs */
    double confidence, var;
    long line;
} bt_var_row;

/* One day's P&L of a node. */
typedef struct bt_pnl_row {
    char date[11];
    char *node;
    double hypothetical, actual;
    int has_actual;
    long line;
} bt_pnl_row;

typedef struct bt_inputs {
    bt_var_row *var;
    size_t nvar;
    bt_pnl_row *pnl;
    size_t npnl;
} bt_inputs;

/* Reads both files; on return 0 var is sorted by (node, confidence, date) and pnl by (node,
 * date), duplicates refused. Returns -1 with a message in err. */
int bt_read_var(const char *path, bt_inputs *in, char *err);
int bt_read_pnl(const char *path, bt_inputs *in, char *err);
void bt_inputs_free(bt_inputs *in);

#endif
