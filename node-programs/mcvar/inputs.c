/* inputs.c: the table reader behind every mcvar input file.
 *
 * Every rank reads the whole file collectively and parses it identically, so a bad row is
 * found by all ranks at the same line; reading stops there on every rank at once, which
 * keeps the collective rounds in lockstep. */
#include "inputs.h"

#include <stdio.h>
#include <string.h>

#include "csv.h"

#define INPUTS_ABSENT (-2) /* an optional column the header does not have */

typedef struct table {
    const char *path;
    gio_reader *r;
    int index[CSV_MAX_FIELDS]; /* wanted column -> field position */
    char *fields[CSV_MAX_FIELDS], *cols[CSV_MAX_FIELDS];
} table;

static unsigned long long current_line;

unsigned long long inputs_current_line(void) { return current_line; }

static int fail_at(table *t, char *err, unsigned long long line, const char *what) {
    char msg[MCVAR_ERRLEN];
    snprintf(msg, sizeof msg, "%s", what);
    snprintf(err, MCVAR_ERRLEN, "%s:%llu: %s", t->path, line, msg);
    return -1;
}

/* A problem with the line just read. */
static int fail(table *t, char *err, const char *what) {
    return fail_at(t, err, gio_reader_line_number(t->r), what);
}

/* Decoding failed inside the next line: name the line it would have been (line 1 when the
 * first compressed block is bad, never line 0). */
static int fail_next(table *t, char *err, const char *what) {
    return fail_at(t, err, gio_reader_line_number(t->r) + 1, what);
}

static int read_header(table *t, const char *const *columns, int ncolumns, char *err) {
    char *line, msg[MCVAR_ERRLEN];
    size_t len;
    int rc = gio_reader_line(t->r, &line, &len, msg);
    if (rc == GIO_EOF) {
        snprintf(err, MCVAR_ERRLEN, "%s:1: empty file: expected a header row", t->path);
        return -1;
    }
    if (rc) return fail_next(t, err, msg);
    if (len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) { line += 3; len -= 3; } /* BOM */
    int n = csv_split(line, len, t->fields, CSV_MAX_FIELDS, msg);
    if (n < 0) return fail(t, err, msg);
    for (int c = 0; c < ncolumns; c++) {
        const char *name = columns[c] + (columns[c][0] == '?'); /* '?': optional */
        t->index[c] = -1;
        for (int f = 0; f < n; f++)
            if (strcmp(t->fields[f], name) == 0) t->index[c] = f;
        if (t->index[c] < 0 && columns[c][0] == '?') {
            t->index[c] = INPUTS_ABSENT;
        } else if (t->index[c] < 0) {
            snprintf(msg, sizeof msg, "missing column '%s' in the header", columns[c]);
            return fail(t, err, msg);
        }
    }
    return 0;
}

static int read_rows(table *t, const char *const *columns, int ncolumns, inputs_row_fn fn,
                     void *ctx, char *err) {
    char *line, msg[MCVAR_ERRLEN];
    size_t len;
    int rc;
    while ((rc = gio_reader_line(t->r, &line, &len, msg)) == GIO_OK) {
        if (len == 0 || (len == 1 && line[0] == '\r')) continue; /* blank line */
        int n = csv_split(line, len, t->fields, CSV_MAX_FIELDS, msg);
        if (n < 0) return fail(t, err, msg);
        for (int c = 0; c < ncolumns; c++) {
            if (t->index[c] == INPUTS_ABSENT) {
                t->cols[c] = (char *)"";
                continue;
            }
            if (t->index[c] >= n) {
                snprintf(msg, sizeof msg, "missing column '%s' (field %d): the row has %d fields",
                         columns[c], t->index[c] + 1, n);
                return fail(t, err, msg);
            }
            t->cols[c] = t->fields[t->index[c]];
        }
        current_line = gio_reader_line_number(t->r);
        if (fn(ctx, t->cols, msg)) return fail(t, err, msg);
    }
    return rc == GIO_EOF ? 0 : fail_next(t, err, msg);
}

int inputs_read_table(const char *path, const gio_read_options *o,
                      const char *const *columns, int ncolumns, inputs_row_fn fn, void *ctx,
                      char *err) {
    table t = {.path = path};
    char msg[GIO_ERRLEN];
    if (gio_reader_open(&t.r, path, o, msg)) {
        snprintf(err, MCVAR_ERRLEN, "%s: %s", path, msg);
        return -1;
    }
    int rc = read_header(&t, columns, ncolumns, err);
    if (!rc) rc = read_rows(&t, columns, ncolumns, fn, ctx, err);
    gio_reader_close(t.r);
    return rc;
}
