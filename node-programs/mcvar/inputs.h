/* inputs: reads one CSV input table through gio, finding columns by name in the header,
 * and hands each data row to a callback. Every message is "file:line: what is wrong". */
#ifndef MCVAR_INPUTS_H
#define MCVAR_INPUTS_H

#include "gio.h"

#define MCVAR_ERRLEN 1024

/* Called per data row with the wanted columns in the order asked for (empty string for
 * an empty field). Returns 0, or -1 with a message (without the file:line prefix). */
typedef int (*inputs_row_fn)(void *ctx, char **cols, char *err);

/* A column name starting with '?' is optional: a header without it reads as an empty field.
 * o == NULL reads with plain POSIX calls (tests, single process). */
int inputs_read_table(const char *path, const gio_read_options *o,
                      const char *const *columns, int ncolumns, inputs_row_fn fn, void *ctx,
                      char *err);

/* The line number of the row being handed to the callback. */
unsigned long long inputs_current_line(void);

#endif
