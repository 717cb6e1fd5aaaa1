/* scenario_file.c: see scenario_file.h. */
#include "scenario_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

#define SF_BLOCK 64 /* scenarios generated together, as mcvar values them */

int scenario_file_write(scenario_gen *g, long long n, const char *path, size_t block_size,
                        char *err) {
    const market *m = g->m;
    int to_stdout = strcmp(path, "-") == 0;
    const char *name = to_stdout ? "standard output" : path;
    size_t F = (size_t)m->n;
    double *x = malloc(sizeof(double) * F * SF_BLOCK), *lev = malloc(sizeof(double) * F * SF_BLOCK);
    gio_writer *w = NULL;
    char msg[GIO_ERRLEN] = "";
    int rc = !x || !lev ? (snprintf(msg, sizeof msg, "out of memory"), -1)
                        : gio_writer_open(&w, to_stdout ? "/dev/stdout" : path, 1, block_size, msg);
    if (!rc) rc = gio_writer_printf(w, msg, "scenario");
    for (size_t f = 0; !rc && f < F; f++) rc = gio_writer_printf(w, msg, ",%s", m->ids.keys[f]);
    if (!rc) rc = gio_writer_printf(w, msg, "\n");
    for (long long s = 0; !rc && s < n; s += SF_BLOCK) {
        int cnt = (int)(n - s < SF_BLOCK ? n - s : SF_BLOCK);
        scenarios_fill(g, s, NULL, cnt, SF_BLOCK, x, lev);
        for (int b = 0; !rc && b < cnt; b++) {
            rc = gio_writer_printf(w, msg, "%lld", s + b);
            for (size_t f = 0; !rc && f < F; f++) /* + 0.0: never "-0" */
                rc = gio_writer_printf(w, msg, ",%.17g", x[f * SF_BLOCK + (size_t)b] + 0.0);
            if (!rc) rc = gio_writer_printf(w, msg, "\n");
        }
    }
    if (w) {
        int crc = gio_writer_close(w, rc ? NULL : msg);
        if (!rc) rc = crc;
    }
    free(x);
    free(lev);
    if (rc) {
        if (w && !to_stdout) remove(path);
        return snprintf(err, MCVAR_ERRLEN, "%s: %s", name, msg), -1;
    }
    return 0;
}

typedef struct reading {
    long long n, next;
    int nf;
    double *x;
} reading;

static int scenario_row(void *ctx, char **c, char *err) {
    reading *r = ctx;
    char *end;
    errno = 0;
    long long s = strtoll(c[0], &end, 10);
    if (end == c[0] || *end || errno || s != r->next)
        return snprintf(err, 256, "scenario '%s' where %lld was expected (rows 0, 1, ... in "
                        "order, as mcvar --scenarios-out writes them)", c[0], r->next), -1;
    if (s >= r->n)
        return snprintf(err, 256, "more than the %lld scenarios the parameters ask for", r->n), -1;
    for (int f = 0; f < r->nf; f++) {
        errno = 0;
        double v = strtod(c[1 + f], &end);
        if (end == c[1 + f] || *end || errno)
            return snprintf(err, 256, "factor column %d: '%s' is not a number", f + 2, c[1 + f]), -1;
        r->x[(size_t)f * (size_t)r->n + (size_t)s] = v;
    }
    r->next++;
    return 0;
}

int scenario_file_read(const market *m, long long n, const char *path,
                       const gio_read_options *o, double **x, char *err) {
    reading r = {n, 0, m->n, malloc(sizeof(double) * (size_t)m->n * (size_t)(n ? n : 1))};
    const char **cols = malloc(sizeof(char *) * (size_t)(m->n + 1));
    if (!r.x || !cols) {
        free(r.x);
        free(cols);
        return snprintf(err, MCVAR_ERRLEN, "out of memory for %lld scenarios", n), -1;
    }
    cols[0] = "scenario";
    for (int f = 0; f < m->n; f++) cols[1 + f] = m->ids.keys[f];
    int rc = inputs_read_table(path, o, cols, m->n + 1, scenario_row, &r, err);
    free(cols);
    if (!rc && r.next != n)
        rc = (snprintf(err, MCVAR_ERRLEN, "%s: %lld scenarios, the parameters ask for %lld "
                       "(generate them with the same --params)", path, r.next, n), -1);
    if (rc) {
        free(r.x);
        return -1;
    }
    *x = r.x;
    return 0;
}
