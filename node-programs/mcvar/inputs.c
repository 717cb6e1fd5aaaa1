/* inputs.c: the table reader behind every mcvar input file.
 *
 * Every rank reads the whole file collectively and parses it identically, so a bad row is
 * found by all ranks at the same line; reading stops there on every rank at once, which
 * keeps the collective rounds in lockstep. A followed input (--follow-inputs) is read the
 * same way, from rank 0's follow reader instead of the file system. */
#include "inputs.h"

#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "gio_mpi.h"
#include "sha256.h"

#define INPUTS_ABSENT (-2) /* an optional column the header does not have */

typedef struct table {
    const char *path;
    gio_reader *r;
    int index[CSV_MAX_FIELDS]; /* wanted column -> field position */
    char *fields[CSV_MAX_FIELDS], *cols[CSV_MAX_FIELDS];
} table;

static unsigned long long current_line;

/* The followed inputs (--follow-inputs), each with the checksum of the bytes read. */
#define INPUTS_MAX_FOLLOWED 8
typedef struct followed {
    const char *path;
    double timeout_s;
    sha256_ctx sum;
    int done;
    char hex[65];
} followed;
static followed follows[INPUTS_MAX_FOLLOWED];
static int nfollows;

int inputs_follow(const char *path, double timeout_s) {
    if (nfollows == INPUTS_MAX_FOLLOWED) return -1;
    follows[nfollows++] = (followed){.path = path, .timeout_s = timeout_s};
    return 0;
}

static followed *find_followed(const char *path) {
    for (int i = 0; i < nfollows; i++)
        if (strcmp(follows[i].path, path) == 0) return &follows[i];
    return NULL;
}

int inputs_followed_sha256(const char *path, char hex[65]) {
    followed *f = find_followed(path);
    if (!f || !f->done) return 0;
    memcpy(hex, f->hex, 65);
    return 1;
}

static void sum_tap(void *ctx, const void *raw, size_t len) {
    sha256_update(&((followed *)ctx)->sum, raw, len);
}

static int open_input(table *t, const gio_read_options *o, followed *f, char *msg) {
    if (!f) return gio_reader_open(&t->r, t->path, o, msg);
    gio_follow_options fo;
    gio_follow_options_default(&fo);
    fo.timeout_s = f->timeout_s;
    fo.tap = sum_tap;
    fo.tap_ctx = f;
    if (o) fo.buffer_size = o->buffer_size;
    sha256_init(&f->sum);
    f->done = 0;
    return o ? gio_follow_open_collective(&t->r, t->path, &fo, msg)
             : gio_follow_open(&t->r, t->path, &fo, msg);
}

/* The follow reader's messages start with the path already: "path: " is not repeated. */
static const char *without_path(const table *t, const char *msg) {
    size_t n = strlen(t->path);
    return strncmp(msg, t->path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

unsigned long long inputs_current_line(void) { return current_line; }

static int fail_at(table *t, char *err, unsigned long long line, const char *what) {
    char msg[MCVAR_ERRLEN];
    snprintf(msg, sizeof msg, "%s", without_path(t, what));
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
    followed *f = find_followed(path);
    if (open_input(&t, o, f, msg)) {
        snprintf(err, MCVAR_ERRLEN, "%s: %s", path, without_path(&t, msg));
        return -1;
    }
    int rc = read_header(&t, columns, ncolumns, err);
    if (!rc) rc = read_rows(&t, columns, ncolumns, fn, ctx, err);
    gio_reader_close(t.r);
    if (!rc && f && (!o || gio_mpi_rank() == 0)) { /* only rank 0 saw the bytes */
        unsigned char md[32];
        sha256_final(&f->sum, md);
        for (int i = 0; i < 32; i++) snprintf(f->hex + 2 * i, 3, "%02x", md[i]);
        f->done = 1;
    }
    return rc;
}
