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

/* --follow-inputs: path is read while its producer may still write it (a growing blocked-gzip
 * file, read to its end-of-file block, or a FIFO, read to its end): rank 0 follows it and the
 * other ranks get its bytes (gio_follow_open_collective), with timeout_s as the no-progress
 * limit. Returns -1 when too many inputs are followed. */
int inputs_follow(const char *path, double timeout_s);
/* For a followed input read to its end on this rank (rank 0 under MPI): 1 and the sha256 of
 * its bytes as they were read (a FIFO cannot be read a second time); else 0. */
int inputs_followed_sha256(const char *path, char hex[65]);

/* The line number of the row being handed to the callback. */
unsigned long long inputs_current_line(void);

#endif
