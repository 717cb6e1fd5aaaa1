/* bt_input.c: reads and checks the VaR history and the P&L series (columns found by header name,
 * other columns ignored, so mcvar's var_summary.csv as staged back from SQL is read as it is). */
#include "bt_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "gio.h"
#include "market.h"

typedef int (*row_fn)(char **f, const int *col, long line, bt_inputs *in, char *why);

/* Reads path, maps the wanted header names to columns (optional ones may be missing: -1), and
 * hands every non-empty row to fn. */
static int read_csv(const char *path, const char *const *names, int nnames, int nrequired,
                    row_fn fn, bt_inputs *in, char *err) {
    gio_reader *r = NULL;
    char msg[GIO_ERRLEN], why[256];
    if (gio_reader_open(&r, path, NULL, msg))
        return snprintf(err, BT_ERRLEN, "%s: %s", path, msg), -1;
    char *line, *f[CSV_MAX_FIELDS];
    size_t len;
    int col[8], nf_header = -1, rc;
    while ((rc = gio_reader_line(r, &line, &len, msg)) == GIO_OK) {
        long ln = (long)gio_reader_line_number(r);
        if (len == 0 || (len == 1 && line[0] == '\r')) continue;
        int nf = csv_split(line, len, f, CSV_MAX_FIELDS, why);
        if (nf < 0) { snprintf(err, BT_ERRLEN, "%s:%ld: %s", path, ln, why); goto fail; }
        if (nf_header < 0) {
            nf_header = nf;
            for (int k = 0; k < nnames; k++) {
                col[k] = -1;
                for (int j = 0; j < nf; j++)
                    if (strcmp(f[j], names[k]) == 0) col[k] = j;
                if (col[k] < 0 && k < nrequired) {
                    snprintf(err, BT_ERRLEN, "%s:%ld: missing column '%s'", path, ln, names[k]);
                    goto fail;
                }
            }
            continue;
        }
        if (nf != nf_header) {
            snprintf(err, BT_ERRLEN, "%s:%ld: %d fields, the header has %d", path, ln, nf,
                     nf_header);
            goto fail;
        }
        if (fn(f, col, ln, in, why)) {
            snprintf(err, BT_ERRLEN, "%s:%ld: %s", path, ln, why);
            goto fail;
        }
    }
    if (rc != GIO_EOF) { snprintf(err, BT_ERRLEN, "%s: %s", path, msg); goto fail; }
    gio_reader_close(r);
    if (nf_header < 0) return snprintf(err, BT_ERRLEN, "%s:1: no header", path), -1;
    return 0;
fail:
    gio_reader_close(r);
    return -1;
}

/* Room for element n: capacity 64, then doubled whenever n reaches a power of two. */
static int grow(void **a, size_t n, size_t size) {
    if (n != 0 && (n < 64 || (n & (n - 1)))) return 0;
    void *b = realloc(*a, size * (n ? n * 2 : 64));
    if (!b) return -1;
    *a = b;
    return 0;
}

static int check_date(const char *s, char *out, char *why) {
    if (!market_valid_date(s))
        return snprintf(why, 256, "business_date '%s' is not a calendar date YYYY-MM-DD", s), -1;
    memcpy(out, s, 11);
    return 0;
}

static int var_row(char **f, const int *col, long line, bt_inputs *in, char *why) {
    bt_var_row v = {.line = line};
    if (check_date(f[col[0]], v.date, why)) return -1;
    if (!f[col[1]][0]) return snprintf(why, 256, "empty node"), -1;
    const char *c = f[col[2]], *x = f[col[3]];
    if (csv_number(c, &v.confidence) || !(v.confidence > 0 && v.confidence < 1) ||
        strlen(c) >= sizeof v.conf_text)
        return snprintf(why, 256, "confidence '%s' is not a number in (0, 1)", c), -1;
    if (csv_number(x, &v.var))
        return snprintf(why, 256, "var '%s' is not a number", x), -1;
    if (v.var < 0)
        return snprintf(why, 256,
                        "var %s is negative (a loss is a positive number, as mcvar writes it)", x),
               -1;
    strcpy(v.conf_text, c);
    if (grow((void **)&in->var, in->nvar, sizeof *in->var) || !(v.node = strdup(f[col[1]])))
        return snprintf(why, 256, "out of memory"), -1;
    in->var[in->nvar++] = v;
    return 0;
}

static int pnl_row(char **f, const int *col, long line, bt_inputs *in, char *why) {
    bt_pnl_row p = {.line = line};
    if (check_date(f[col[0]], p.date, why)) return -1;
    if (!f[col[1]][0]) return snprintf(why, 256, "empty node"), -1;
    if (csv_number(f[col[2]], &p.hypothetical))
        return snprintf(why, 256, "pnl_hypothetical '%s' is not a number", f[col[2]]), -1;
    if (col[3] >= 0 && f[col[3]][0]) {
        if (csv_number(f[col[3]], &p.actual))
            return snprintf(why, 256, "pnl_actual '%s' is not a number", f[col[3]]), -1;
        p.has_actual = 1;
    }
    if (grow((void **)&in->pnl, in->npnl, sizeof *in->pnl) || !(p.node = strdup(f[col[1]])))
        return snprintf(why, 256, "out of memory"), -1;
    in->pnl[in->npnl++] = p;
    return 0;
}

static int cmp_double(double a, double b) { return (a > b) - (a < b); }

static int cmp_var(const void *a, const void *b) {
    const bt_var_row *x = a, *y = b;
    int c = strcmp(x->node, y->node);
    if (!c) c = cmp_double(x->confidence, y->confidence);
    if (!c) c = strcmp(x->date, y->date);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int cmp_pnl(const void *a, const void *b) {
    const bt_pnl_row *x = a, *y = b;
    int c = strcmp(x->node, y->node);
    if (!c) c = strcmp(x->date, y->date);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

int bt_read_var(const char *path, bt_inputs *in, char *err) {
    static const char *const names[] = {"business_date", "node", "confidence", "var"};
    if (read_csv(path, names, 4, 4, var_row, in, err)) return -1;
    if (in->nvar) qsort(in->var, in->nvar, sizeof *in->var, cmp_var);
    for (size_t i = 1; i < in->nvar; i++) {
        const bt_var_row *a = &in->var[i - 1], *b = &in->var[i];
        if (!cmp_double(a->confidence, b->confidence) && !strcmp(a->node, b->node) &&
            !strcmp(a->date, b->date))
            return snprintf(err, BT_ERRLEN,
                            "%s:%ld: a second var for %s, node '%s', confidence %s (first at line %ld)",
                            path, b->line, b->date, b->node, b->conf_text, a->line), -1;
    }
    return 0;
}

int bt_read_pnl(const char *path, bt_inputs *in, char *err) {
    static const char *const names[] = {"business_date", "node", "pnl_hypothetical", "pnl_actual"};
    if (read_csv(path, names, 4, 3, pnl_row, in, err)) return -1;
    if (in->npnl) qsort(in->pnl, in->npnl, sizeof *in->pnl, cmp_pnl);
    for (size_t i = 1; i < in->npnl; i++) {
        const bt_pnl_row *a = &in->pnl[i - 1], *b = &in->pnl[i];
        if (!strcmp(a->node, b->node) && !strcmp(a->date, b->date))
            return snprintf(err, BT_ERRLEN,
                            "%s:%ld: a second P&L for %s, node '%s' (first at line %ld)", path,
                            b->line, b->date, b->node, a->line), -1;
    }
    return 0;
}

void bt_inputs_free(bt_inputs *in) {
    for (size_t i = 0; i < in->nvar; i++) free(in->var[i].node);
    for (size_t i = 0; i < in->npnl; i++) free(in->pnl[i].node);
    free(in->var);
    free(in->pnl);
    *in = (bt_inputs){0};
}
