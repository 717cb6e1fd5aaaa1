/* whatif.c: see whatif.h. */
#include "whatif.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "inputs.h"
#include "risk.h"

#define WI_BLOCK 64
#define BAD_ROW (-1000) /* not a gio status */

typedef struct base_pnl {
    int nnodes;
    char **node;
    double *pnl; /* nnodes x n */
} base_pnl;

static void base_free(base_pnl *b) {
    for (int i = 0; i < b->nnodes; i++) free(b->node[i]);
    free(b->node);
    free(b->pnl);
}

/* node_pnl.csv.gz: scenario,<node>,... then one row per scenario in order. Node paths hold no
 * comma or quote (refused at load), so plain splitting is exact. */
static int read_base(const char *path, long long n, base_pnl *b, char *err) {
    gio_reader *r;
    char msg[GIO_ERRLEN], *line;
    size_t len;
    if (gio_reader_open(&r, path, NULL, msg))
        return snprintf(err, MCVAR_ERRLEN, "%s: %s (run the base job into this --out-dir first)", path, msg), -1;
    int rc = gio_reader_line(r, &line, &len, msg);
    if (rc || len < 8 || strncmp(line, "scenario", 8) != 0) {
        gio_reader_close(r);
        return snprintf(err, MCVAR_ERRLEN, "%s:1: not a node P&L file", path), -1;
    }
    line[len] = 0;
    int cap = 16;
    b->node = malloc(sizeof(char *) * (size_t)cap);
    for (char *tok = strchr(line, ','); b->node && tok; tok = strchr(tok + 1, ',')) {
        char *end = strchr(tok + 1, ',');
        size_t l = end ? (size_t)(end - tok - 1) : strlen(tok + 1);
        if (b->nnodes == cap) {
            cap *= 2;
            char **g = realloc(b->node, sizeof(char *) * (size_t)cap);
            if (!g) break;
            b->node = g;
        }
        if (l && tok[l] == '\r') l--;
        b->node[b->nnodes++] = strndup(tok + 1, l);
    }
    b->pnl = malloc(sizeof(double) * (size_t)(b->nnodes ? b->nnodes : 1) * (size_t)n);
    if (!b->node || !b->pnl) {
        gio_reader_close(r);
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    }
    long long s = 0;
    while ((rc = gio_reader_line(r, &line, &len, msg)) == GIO_OK) {
        if (s >= n) { rc = BAD_ROW; break; }
        line[len] = 0;
        char *p = strchr(line, ',');
        for (int i = 0; i < b->nnodes; i++) {
            char *end;
            if (!p) { rc = BAD_ROW; break; }
            b->pnl[(size_t)i * n + s] = strtod(p + 1, &end);
            if (end == p + 1) { rc = BAD_ROW; break; }
            p = *end == ',' ? end : NULL;
        }
        if (rc) break;
        s++;
    }
    unsigned long long at = gio_reader_line_number(r);
    gio_reader_close(r);
    if (rc == BAD_ROW || (rc == GIO_EOF && s != n))
        return snprintf(err, MCVAR_ERRLEN, "%s:%llu: the base run's node P&L does not match "
                        "these inputs (%lld scenarios now; rerun the base job)", path, at, n), -1;
    if (rc != GIO_EOF) return snprintf(err, MCVAR_ERRLEN, "%s: %s", path, msg), -1;
    return 0;
}

/* The base run's input checksums (run_inputs.csv in the output directory) must be those of
 * this run's market inputs and parameters: otherwise the regenerated scenarios would not be
 * the ones the stored node P&L was computed on. */
typedef struct base_inputs {
    const whatif_inputs *in;
    int matched;
} base_inputs;

static const char *input_path(const mcvar_options *o, const char *name) {
    return strcmp(name, "params") == 0 ? o->params : strcmp(name, "factors") == 0 ? o->factors
         : strcmp(name, "history") == 0 ? o->history
         : strcmp(name, "covariance") == 0 ? o->covariance : NULL;
}

static int base_input_row(void *ctx, char **c, char *err) {
    base_inputs *b = ctx;
    if (strcmp(c[0], "positions") == 0) return 0; /* the base book itself is not read */
    const char *path = input_path(b->in->o, c[0]);
    char hex[65];
    if (!path) return snprintf(err, 256, "the base run read %s, this what-if run does not", c[0]), -1;
    if (report_sha256_file(path, hex, err)) return -1;
    if (strcmp(hex, c[1]) != 0)
        return snprintf(err, 256, "%s differs from the base run's %s input (sha256 %.16s... "
                        "there, %.16s... here): the stored scenarios are not these", path, c[0],
                        c[1], hex), -1;
    b->matched++;
    return 0;
}

static int check_base_inputs(const whatif_inputs *in, char *err) {
    static const char *const cols[] = {"input", "sha256"};
    char path[4096];
    snprintf(path, sizeof path, "%s/run_inputs.csv", in->o->out_dir);
    if (access(path, F_OK) != 0) /* the base run wrote compressed outputs */
        snprintf(path, sizeof path, "%s/run_inputs.csv.gz", in->o->out_dir);
    base_inputs b = {in, 0};
    if (inputs_read_table(path, NULL, cols, 2, base_input_row, &b, err)) return -1;
    int want = 2 + (in->o->history != NULL) + (in->o->covariance != NULL);
    if (b.matched != want)
        return snprintf(err, MCVAR_ERRLEN, "%s: the base run read other market inputs than "
                        "this what-if run", path), -1;
    return 0;
}

static int find_node(const base_pnl *b, const char *path) {
    for (int i = 0; i < b->nnodes; i++)
        if (strcmp(b->node[i], path) == 0) return i;
    return -1;
}

int whatif_run(const whatif_inputs *in, report *rep, char *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/node_pnl.csv.gz", in->o->out_dir);
    base_pnl base = {0};
    const book *nb = in->b;
    long long n = in->n;
    int rc = check_base_inputs(in, err), nl = in->p->nconfidence;
    if (!rc) rc = read_base(path, n, &base, err);
    int *map = malloc(sizeof(int) * (size_t)nb->nnodes);
    double *x = malloc(sizeof(double) * (size_t)in->m->n * WI_BLOCK);
    double *lev = malloc(sizeof(double) * (size_t)in->m->n * WI_BLOCK);
    double *fx = malloc(sizeof(double) * (size_t)nb->nccy * WI_BLOCK);
    double *blk = malloc(sizeof(double) * (size_t)nb->nnodes * WI_BLOCK);
    double *after = malloc(sizeof(double) * (size_t)nb->nnodes * (size_t)n);
    size_t cells = (size_t)nl * (size_t)nb->nnodes;
    double *vb = malloc(sizeof(double) * cells), *va = malloc(sizeof(double) * cells);
    double *eb = malloc(sizeof(double) * cells), *ea = malloc(sizeof(double) * cells);
    if (!rc && (!map || !x || !lev || !fx || !blk || !after || !vb || !va || !eb || !ea))
        rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
    for (int i = 0; !rc && i < nb->nnodes; i++)
        if ((map[i] = find_node(&base, nb->node_path[i])) < 0)
            rc = (snprintf(err, MCVAR_ERRLEN, "%s: node '%s' of the new trades is not in the "
                           "base run's hierarchy (%s)", in->o->what_if, nb->node_path[i], path), -1);
    /* the new trades' P&L on every scenario, rolled up their own tree */
    for (long long s = 0; !rc && s < n; s += WI_BLOCK) {
        int cnt = (int)(n - s < WI_BLOCK ? n - s : WI_BLOCK);
        scenarios_fill(in->g, s, NULL, cnt, WI_BLOCK, x, lev);
        pricer_fx(in->pr, lev, WI_BLOCK, cnt, fx);
        pricer_node_pnl(in->pr, x, lev, fx, WI_BLOCK, cnt, blk);
        book_roll_up(nb, blk, WI_BLOCK, cnt);
        for (int i = 0; i < nb->nnodes; i++) {
            const double *bp = base.pnl + (size_t)map[i] * n + s;
            double *ap = after + (size_t)i * n + s;
            for (int j = 0; j < cnt; j++) ap[j] = bp[j] + blk[(size_t)i * WI_BLOCK + j];
        }
    }
    for (int i = 0; !rc && i < nb->nnodes; i++) {
        risk_summary before, aft;
        if (risk_analyse(base.pnl + (size_t)map[i] * n, n, in->p, 0, &before)) {
            rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
            break;
        }
        if (risk_analyse(after + (size_t)i * n, n, in->p, 0, &aft)) {
            risk_free(&before);
            rc = (snprintf(err, MCVAR_ERRLEN, "out of memory"), -1);
            break;
        }
        for (int l = 0; l < nl; l++) {
            size_t at = (size_t)l * nb->nnodes + i;
            vb[at] = before.level[l].var;
            va[at] = aft.level[l].var;
            eb[at] = before.level[l].es;
            ea[at] = aft.level[l].es;
        }
        risk_free(&before);
        risk_free(&aft);
    }
    if (!rc) {
        report_options ro = {in->o->out_dir, in->o->run_id, in->o->compress_output, in->o->block_size};
        rc = report_write_what_if(rep, &ro, in->p, nb, nb->nnodes, nb->node_path, vb, va, eb, ea, err);
    }
    base_free(&base);
    free(map); free(x); free(lev); free(fx); free(blk); free(after);
    free(vb); free(va); free(eb); free(ea);
    return rc;
}
