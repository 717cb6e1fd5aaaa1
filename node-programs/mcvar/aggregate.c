/* aggregate.c: see aggregate.h. */
#include "aggregate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio.h"
#include "inputs.h"
#include "risk.h"

#define AGG_MAX_FILES 63 /* with params, REPORT_MAX_INPUTS */

typedef struct pnl_file {
    const char *path;
    int nnodes;
    char **node;
    double *pnl; /* nnodes x n */
    int *at;     /* union index of each of its nodes */
} pnl_file;

static void file_free(pnl_file *f) {
    for (int i = 0; i < f->nnodes; i++) free(f->node[i]);
    free(f->node);
    free(f->pnl);
    free(f->at);
}

static int add_node(pnl_file *f, const char *s, size_t l, int *cap) {
    if (f->nnodes == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        char **g = realloc(f->node, sizeof(char *) * (size_t)*cap);
        if (!g) return -1;
        f->node = g;
    }
    return (f->node[f->nnodes++] = strndup(s, l)) ? 0 : -1;
}

/* node_pnl.csv.gz: scenario,<node>,... then scenario 0, 1, ... in order. The header is
 * split as RFC 4180 (report.c quotes a path holding a comma or quote); values are plain. */
static int read_header(pnl_file *f, char *line, size_t len, char *err) {
    line[len] = 0;
    if (len && line[len - 1] == '\r') line[--len] = 0;
    if (strncmp(line, "scenario,", 9) != 0)
        return snprintf(err, MCVAR_ERRLEN, "%s:1: not a node P&L file (mcvar's "
                        "node_pnl.csv.gz: scenario,<node>,...)", f->path), -1;
    int cap = 0;
    char *p = line + 9, *buf = malloc(len + 1);
    if (!buf) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    for (;;) {
        size_t l = 0;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"') p++;
                buf[l++] = *p;
            }
            if (*p == '"') p++;
        } else {
            while (*p && *p != ',') buf[l++] = *p++;
        }
        if (!l || add_node(f, buf, l, &cap)) {
            free(buf);
            return snprintf(err, MCVAR_ERRLEN, "%s:1: %s", f->path,
                            l ? "out of memory" : "an empty node name"), -1;
        }
        if (*p != ',') break;
        p++;
    }
    free(buf);
    return 0;
}

static int read_file(pnl_file *f, long long *n, char *err) {
    gio_reader *r;
    char msg[GIO_ERRLEN], *line;
    size_t len;
    if (gio_reader_open(&r, f->path, NULL, msg))
        return snprintf(err, MCVAR_ERRLEN, "%s: %s", f->path, msg), -1;
    int rc = gio_reader_line(r, &line, &len, msg);
    if (rc) {
        gio_reader_close(r);
        return snprintf(err, MCVAR_ERRLEN, "%s:1: %s", f->path,
                        rc == GIO_EOF ? "empty file: expected a header row" : msg), -1;
    }
    if (read_header(f, line, len, err)) return gio_reader_close(r), -1;
    long long cap = *n > 0 ? *n : 1024, s = 0;
    f->pnl = malloc(sizeof(double) * (size_t)f->nnodes * (size_t)cap);
    const char *bad = NULL;
    while (f->pnl && !bad && (rc = gio_reader_line(r, &line, &len, msg)) == GIO_OK) {
        line[len] = 0;
        if (s == cap) { /* the first file: its length is the scenario count */
            if (*n > 0) { bad = "more scenarios than the first file"; break; }
            double *g = realloc(f->pnl, sizeof(double) * (size_t)f->nnodes * (size_t)(cap * 2));
            if (!g) break;
            f->pnl = g;
            cap *= 2;
        }
        char *end;
        errno = 0;
        if (strtoll(line, &end, 10) != s || errno || *end != ',') { bad = "a scenario out of order"; break; }
        for (int i = 0; !bad && i < f->nnodes; i++) {
            char *v = end + 1;
            f->pnl[(size_t)s * (size_t)f->nnodes + (size_t)i] = strtod(v, &end);
            if (end == v || (*end != ',' && *end != '\r' && *end) || (i + 1 < f->nnodes) != (*end == ','))
                bad = "not one number per node";
        }
        s++;
    }
    unsigned long long at = gio_reader_line_number(r);
    gio_reader_close(r);
    if (!f->pnl) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    if (bad) return snprintf(err, MCVAR_ERRLEN, "%s:%llu: %s", f->path, at, bad), -1;
    if (rc != GIO_EOF) return snprintf(err, MCVAR_ERRLEN, "%s: %s", f->path, msg), -1;
    if (*n > 0 && s != *n)
        return snprintf(err, MCVAR_ERRLEN, "%s: %lld scenarios, %s has %lld: price every part "
                        "on the same scenarios", f->path, s, "the first file", *n), -1;
    if (s == 0) return snprintf(err, MCVAR_ERRLEN, "%s: no scenarios", f->path), -1;
    *n = s;
    return 0;
}

static int by_string(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The union of the files' nodes, sorted (a parent sorts before its children), with parents. */
static int build_hierarchy(pnl_file *fs, int nf, book *b, char *err) {
    int cnt = 0;
    for (int k = 0; k < nf; k++) cnt += fs[k].nnodes;
    char **all = malloc(sizeof(char *) * (size_t)cnt);
    if (!all) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    cnt = 0;
    for (int k = 0; k < nf; k++)
        for (int i = 0; i < fs[k].nnodes; i++) all[cnt++] = fs[k].node[i];
    qsort(all, (size_t)cnt, sizeof *all, by_string);
    int u = 0;
    for (int i = 0; i < cnt; i++)
        if (!u || strcmp(all[u - 1], all[i]) != 0) all[u++] = all[i];
    b->nnodes = u;
    b->node_path = calloc((size_t)u, sizeof(char *));
    b->parent = malloc(sizeof(int) * (size_t)u);
    b->own = calloc((size_t)u, sizeof(int));
    b->nchildren = calloc((size_t)u, sizeof(int));
    int rc = b->node_path && b->parent && b->own && b->nchildren ? 0 : -1;
    for (int i = 0; !rc && i < u; i++) rc = (b->node_path[i] = strdup(all[i])) ? 0 : -1;
    free(all);
    if (rc) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    int tops = 0;
    for (int i = 0; i < u; i++) {
        const char *path = b->node_path[i], *slash = strrchr(path, '/');
        b->parent[i] = -1;
        if (!slash) {
            tops++;
            continue;
        }
        size_t len = (size_t)(slash - path);
        for (int j = i - 1; j >= 0 && b->parent[i] < 0; j--)
            if (strlen(b->node_path[j]) == len && strncmp(b->node_path[j], path, len) == 0)
                b->parent[i] = j;
        if (b->parent[i] < 0)
            return snprintf(err, MCVAR_ERRLEN, "node '%s' has no parent node in the files: "
                            "they are not mcvar node P&L files of one hierarchy", path), -1;
        b->nchildren[b->parent[i]]++;
    }
    if (tops != 1)
        return snprintf(err, MCVAR_ERRLEN, "the files' nodes have %d top nodes ('%s' and "
                        "'%s'): parts of one book share its top", tops, b->node_path[0],
                        b->node_path[u - 1]), -1;
    for (int k = 0; k < nf; k++) {
        if (!(fs[k].at = malloc(sizeof(int) * (size_t)fs[k].nnodes)))
            return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
        for (int i = 0; i < fs[k].nnodes; i++) {
            char *key = fs[k].node[i];
            char **hit = bsearch(&key, b->node_path, (size_t)u, sizeof(char *), by_string);
            fs[k].at[i] = (int)(hit - b->node_path);
        }
    }
    return 0;
}

static int is_under(const book *b, int j, int i) {
    while ((j = b->parent[j]) >= 0)
        if (j == i) return 1;
    return 0;
}

static int column_of(const pnl_file *f, int node) {
    for (int i = 0; i < f->nnodes; i++)
        if (f->at[i] == node) return i;
    return -1;
}

/* Node i's total on every scenario into tot[i * n ..]: from the one file holding all of it,
 * else rolled up from its children (tot of nodes after i is already final). */
static int node_total(pnl_file *fs, int nf, const book *b, long long n, int i, double *tot,
                      char *err) {
    int holder = -1, holders = 0;
    for (int k = 0; k < nf; k++)
        if (column_of(&fs[k], i) >= 0) {
            holder = k;
            holders++;
        }
    int whole = holders == 1;
    for (int j = i + 1; whole && j < b->nnodes; j++)
        if (is_under(b, j, i) && column_of(&fs[holder], j) < 0) whole = 0;
    double *t = tot + (size_t)i * (size_t)n;
    if (whole) {
        const pnl_file *f = &fs[holder];
        int c = column_of(f, i);
        for (long long s = 0; s < n; s++) t[s] = f->pnl[(size_t)s * (size_t)f->nnodes + (size_t)c];
        return 0;
    }
    for (int k = 0; k < nf; k++) { /* no positions of its own in any file holding it */
        const pnl_file *f = &fs[k];
        int c = column_of(f, i);
        if (c < 0) continue;
        for (long long s = 0; s < n; s++) {
            double sum = 0;
            for (int j = f->nnodes - 1; j > c; j--)
                if (b->parent[f->at[j]] == i) sum += f->pnl[(size_t)s * (size_t)f->nnodes + (size_t)j];
            if (sum != f->pnl[(size_t)s * (size_t)f->nnodes + (size_t)c])
                return snprintf(err, MCVAR_ERRLEN, "%s: node '%s' holds positions of its own "
                                "(scenario %lld), and other files hold nodes under it: price "
                                "all of '%s' in one part, or its own positions on a node of "
                                "their own", f->path, b->node_path[i], s, b->node_path[i]), -1;
        }
    }
    for (long long s = 0; s < n; s++) t[s] = 0;
    for (int j = b->nnodes - 1; j > i; j--) /* book_roll_up's order */
        if (b->parent[j] == i) {
            const double *src = tot + (size_t)j * (size_t)n;
            for (long long s = 0; s < n; s++) t[s] += src[s];
        }
    return 0;
}

int aggregate_read(const char *files, int rank, int ranks, book *b, long long *n,
                   long long *lo, long long *hi, double **local, char *err) {
    pnl_file fs[AGG_MAX_FILES];
    int nf = 0, rc = 0;
    char *list = strdup(files);
    if (!list) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    *n = 0;
    for (char *save = NULL, *p = strtok_r(list, ",", &save); !rc && p; p = strtok_r(NULL, ",", &save)) {
        if (nf == AGG_MAX_FILES) {
            rc = (snprintf(err, MCVAR_ERRLEN, "--aggregate: at most %d files", AGG_MAX_FILES), -1);
            break;
        }
        memset(&fs[nf], 0, sizeof fs[nf]);
        fs[nf].path = p;
        rc = read_file(&fs[nf++], n, err);
    }
    if (!rc && !nf) rc = (snprintf(err, MCVAR_ERRLEN, "--aggregate names no file"), -1);
    if (!rc) rc = build_hierarchy(fs, nf, b, err);
    double *tot = rc ? NULL : malloc(sizeof(double) * (size_t)b->nnodes * (size_t)*n);
    if (!rc && !tot) rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
    for (int i = b->nnodes - 1; !rc && i >= 0; i--) rc = node_total(fs, nf, b, *n, i, tot, err);
    if (!rc) {
        *lo = *n * rank / ranks;
        *hi = *n * (rank + 1) / ranks;
        long long cnt = *hi - *lo;
        *local = malloc(sizeof(double) * (size_t)b->nnodes * (size_t)(cnt ? cnt : 1));
        if (!*local) rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
        for (int i = 0; !rc && i < b->nnodes; i++)
            memcpy(*local + (size_t)i * (size_t)cnt, tot + (size_t)i * (size_t)*n + (size_t)*lo,
                   sizeof(double) * (size_t)cnt);
    }
    free(tot);
    for (int k = 0; k < nf; k++) file_free(&fs[k]);
    free(list);
    return rc;
}

void aggregate_child_contributions(const book *b, const risk_summary *rs, double *child_var,
                                   double *child_es) {
    for (int c = 1; c < b->nnodes; c++) {
        int p = b->parent[c];
        if (p < 0) continue;
        const risk_summary *r = &rs[p];
        for (int l = 0; l < r->nlevels; l++) {
            const var_level *v = &r->level[l];
            double vs = 0, es = 0;
            for (long long rank = 1; rank <= risk_ranks_needed(r); rank++) {
                double x = r->rows[(size_t)(rank - 1) * b->nnodes + c];
                if (rank >= v->win_from && rank <= v->win_to) vs += x;
                es += risk_es_weight(v, rank) * x;
            }
            size_t i = (size_t)l * b->nnodes + c;
            child_var[i] = risk_var_contribution(v, vs);
            child_es[i] = risk_es_contribution(es);
        }
    }
}
