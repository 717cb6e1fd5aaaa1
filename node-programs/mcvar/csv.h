/* csv: splitting one RFC 4180 line into fields in place, and strict number parsing.
 * Quoted fields may contain commas and "" escapes; a quoted field spanning lines is not
 * supported (our staged files never have one) and is reported as an error. */
#ifndef MCVAR_CSV_H
#define MCVAR_CSV_H

#include <stddef.h>

#define CSV_MAX_FIELDS 64

/* Splits line (len bytes, a trailing '\r' ignored) into NUL-terminated fields. Returns the
 * field count, or -1 with a message in err (size 256). */
int csv_split(char *line, size_t len, char **fields, int max_fields, char *err);
/* Parses a whole field as a finite double; returns 0 or -1. */
int csv_number(const char *s, double *out);

#endif
