/* positions: the book, one structure of arrays, checked against the market on load. */
#ifndef MCVAR_POSITIONS_H
#define MCVAR_POSITIONS_H

#include "gio.h"
#include "market.h"

typedef enum { INSTR_SPOT, INSTR_ZCB, INSTR_CALL, INSTR_PUT } instrument;

typedef struct book {
    int n, cap;
    char **id;
    instrument *type;
    int *factor, *rate;   /* factor indices; rate = -1 for spot */
    double *quantity, *strike, *maturity, *vol;
} book;

void book_init(book *b);
void book_free(book *b);
int book_read(book *b, const market *m, const char *path, const gio_read_options *o,
              char *err);

#endif
