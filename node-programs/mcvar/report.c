/* report.c: the CSV outputs (plain or blocked gzip). Numbers are printed with 17
 * significant digits, so they round-trip exactly and identical runs give identical bytes;
 * a negative zero (the VaR of a book that never moves is -0.0) is printed as 0. Every row
 * starts with run_id,business_date. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"
#include "sha256.h"

enum { F_SUMMARY, F_DIST, F_CONTRIB, F_NODE_CONTRIB, F_TAIL, F_RUN, F_RUN_INPUTS, F_DQ,
       F_NODE_PNL, F_WHAT_IF, F_STOPPING, F_COUNT };

static const char *const names[F_COUNT] = {
    "var_summary.csv", "pnl_distribution.csv", "contributions.csv", "node_contributions.csv",
    "tail_scenarios.csv", "run.csv", "run_inputs.csv", "data_quality.csv", "node_pnl.csv",
    "what_if.csv", "stopping.csv"};

/* -0.0 + 0.0 is +0.0 and every other value is unchanged, so "%g" never prints "-0". */
static double unsigned_zero(double x) { return x + 0.0; }

/* RFC 4180: quote a field holding a comma, quote or line break. */
static int put_field(gio_writer *w, const char *s, char *err) {
    if (!strpbrk(s, ",\"\r\n")) return gio_writer_write(w, s, strlen(s), err);
    int rc = gio_writer_write(w, "\"", 1, err);
    for (const char *p = s; !rc && *p; p++)
        rc = gio_writer_write(w, p, 1, err) || (*p == '"' && gio_writer_write(w, "\"", 1, err));
    return rc ? rc : gio_writer_write(w, "\"", 1, err);
}

/* run_id,business_date,field... (each field quoted as needed), no line end */
static int lead(gio_writer *w, const report_options *o, const params *p, const char *node,
                char *err) {
    int rc = put_field(w, o->run_id, err);
    if (!rc) rc = gio_writer_printf(w, err, ",%s", p->business_date);
    if (!rc && node) rc = gio_writer_write(w, ",", 1, err) || put_field(w, node, err);
    return rc;
}

static int summary(gio_writer *w, const report_options *o, const results *r, char *err) {
    const book *b = r->b;
    int mc = r->p->method != METHOD_HISTORICAL;
    int rc = gio_writer_printf(w, err, "run_id,business_date,node,confidence,var,"
                               "expected_shortfall,var_stderr,es_stderr,pnl_mean,pnl_stddev,"
                               "scenarios,diversification_var,diversification_es\n");
    for (int i = 0; !rc && i < b->nnodes; i++) {
        const risk_summary *s = &r->rs[i];
        for (int l = 0; !rc && l < s->nlevels; l++) {
            const var_level *v = &s->level[l];
            rc = lead(w, o, r->p, b->node_path[i], err);
            if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g,%.17g", v->confidence,
                                            unsigned_zero(v->var), unsigned_zero(v->es));
            if (!rc && mc) rc = gio_writer_printf(w, err, ",%.17g,%.17g", unsigned_zero(v->var_se),
                                                  unsigned_zero(v->es_se));
            if (!rc && !mc) rc = gio_writer_printf(w, err, ",,");
            if (!rc) rc = gio_writer_printf(w, err, ",%.17g,%.17g,%lld", unsigned_zero(s->mean),
                                            unsigned_zero(s->stddev), s->n);
            if (!rc && b->nchildren[i]) {
                double sv = 0, se = 0;
                for (int c = i + 1; c < b->nnodes; c++)
                    if (b->parent[c] == i) {
                        sv += r->rs[c].level[l].var;
                        se += r->rs[c].level[l].es;
                    }
                rc = gio_writer_printf(w, err, ",%.17g,%.17g\n", unsigned_zero(sv - v->var),
                                       unsigned_zero(se - v->es));
            } else if (!rc) {
                rc = gio_writer_printf(w, err, ",,\n");
            }
        }
    }
    return rc;
}

static int distribution(gio_writer *w, const report_options *o, const results *r, char *err) {
    int bins = r->p->histogram_bins;
    int rc = gio_writer_printf(w, err, "run_id,business_date,node,bin,lower,upper,count\n");
    for (int i = 0; !rc && i < r->b->nnodes; i++) {
        const risk_summary *s = &r->rs[i];
        const long long *counts = s->hist;
        double width = s->hist_width;
        for (int k = 0; !rc && k < bins; k++) {
            double lo = s->min + k * width, hi = k == bins - 1 ? s->max : s->min + (k + 1) * width;
            rc = lead(w, o, r->p, r->b->node_path[i], err);
            if (!rc) rc = gio_writer_printf(w, err, ",%d,%.17g,%.17g,%lld\n", k, unsigned_zero(lo),
                                            unsigned_zero(hi), counts[k]);
        }
    }
    return rc;
}

static const book *sort_book; /* qsort has no context argument */
static int by_position_id(const void *a, const void *b) {
    return strcmp(sort_book->id[*(const int *)a], sort_book->id[*(const int *)b]);
}
static void sort_positions(const book *b, int *idx) {
    sort_book = b;
    qsort(idx, (size_t)b->n, sizeof *idx, by_position_id);
}

static int contrib_row(gio_writer *w, const report_options *o, const results *r, int node,
                       int p, int l, double var, double es, char *err) {
    int rc = lead(w, o, r->p, r->b->node_path[node], err);
    if (!rc) rc = gio_writer_write(w, ",", 1, err) || put_field(w, r->b->id[p], err);
    if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g,%.17g", r->p->confidence[l],
                                    unsigned_zero(var), unsigned_zero(es));
    double q = r->b->quantity[p];
    if (!rc && q != 0) rc = gio_writer_printf(w, err, ",%.17g\n", unsigned_zero(var / q));
    else if (!rc) rc = gio_writer_printf(w, err, ",\n");
    return rc;
}

/* Sorted by node, then position, then confidence: the top node's rows first (every
 * position), then each other node's own positions. */
static int contributions(gio_writer *w, const report_options *o, const results *r, char *err) {
    const book *b = r->b;
    int nl = r->p->nconfidence, np = b->n;
    int rc = gio_writer_printf(w, err, "run_id,business_date,node,position_id,confidence,"
                               "var_contribution,es_contribution,marginal_var\n");
    /* the top node is node 0 (it sorts before its descendants) */
    int *by_id = malloc(sizeof(int) * (size_t)np);
    if (!by_id) return snprintf(err, GIO_ERRLEN, "out of memory"), GIO_ENOMEM;
    for (int p = 0; p < np; p++) by_id[p] = p;
    /* the top node's rows by position id (the book is by node, then id) */
    sort_positions(b, by_id);
    for (int j = 0; !rc && j < np; j++)
        for (int l = 0; !rc && l < nl; l++) {
            int p = by_id[j];
            size_t at = (size_t)l * np + p;
            rc = contrib_row(w, o, r, 0, p, l, r->top_var[at], r->top_es[at], err);
        }
    for (int p = 0; !rc && p < np; p++) {
        if (b->node[p] == 0) continue;
        for (int l = 0; !rc && l < nl; l++) {
            size_t at = (size_t)l * np + p;
            rc = contrib_row(w, o, r, b->node[p], p, l, r->own_var[at], r->own_es[at], err);
        }
    }
    free(by_id);
    return rc;
}

static int node_contributions(gio_writer *w, const report_options *o, const results *r,
                              char *err) {
    const book *b = r->b;
    int rc = gio_writer_printf(w, err, "run_id,business_date,node,child_node,confidence,"
                               "var_contribution,es_contribution\n");
    for (int i = 0; !rc && i < b->nnodes; i++)
        for (int c = i + 1; !rc && c < b->nnodes; c++) {
            if (b->parent[c] != i) continue;
            for (int l = 0; !rc && l < r->p->nconfidence; l++) {
                size_t at = (size_t)l * b->nnodes + c;
                rc = lead(w, o, r->p, b->node_path[i], err);
                if (!rc) rc = gio_writer_write(w, ",", 1, err) || put_field(w, b->node_path[c], err);
                if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g,%.17g\n", r->p->confidence[l],
                                                unsigned_zero(r->child_var[at]),
                                                unsigned_zero(r->child_es[at]));
            }
        }
    return rc;
}

static int tail_scenarios(gio_writer *w, const report_options *o, const results *r, char *err) {
    int rc = gio_writer_printf(w, err, "run_id,business_date,node,confidence,rank,scenario,"
                               "from_date,to_date,pnl\n");
    if (r->p->method != METHOD_HISTORICAL) return rc;
    for (int i = 0; !rc && i < r->b->nnodes; i++) {
        const risk_summary *s = &r->rs[i];
        for (int l = 0; !rc && l < s->nlevels; l++)
            for (long long k = 0; !rc && k < s->level[l].k; k++) {
                long long sc = s->order[k];
                long long d = r->first_date + sc;
                rc = lead(w, o, r->p, r->b->node_path[i], err);
                if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%lld,%lld,%s,%s,%.17g\n",
                                                s->level[l].confidence, k + 1, sc,
                                                r->m->dates[d],
                                                r->m->dates[d + r->p->horizon_days],
                                                unsigned_zero(s->tail[k]));
            }
    }
    return rc;
}

static int run_row(gio_writer *w, const report_options *o, const results *r, char *err) {
    const params *p = r->p;
    int rc = gio_writer_printf(w, err, "run_id,business_date,method,horizon_days,scenarios,seed,"
                               "lookback_days,ewma_lambda,base_currency,confidence_levels,"
                               "program_version,stress_from,stress_to\n");
    if (!rc) rc = lead(w, o, p, NULL, err);
    if (!rc) rc = gio_writer_printf(w, err, ",%s,%d,%lld,%llu,%d,", params_method_name(p->method),
                                    p->horizon_days, r->n, (unsigned long long)p->seed,
                                    p->lookback_days);
    if (!rc && p->ewma_lambda > 0) rc = gio_writer_printf(w, err, "%.15g", p->ewma_lambda);
    if (!rc) rc = gio_writer_printf(w, err, ",%s,", p->base_currency);
    for (int l = 0; !rc && l < p->nconfidence; l++)
        rc = gio_writer_printf(w, err, "%s%.15g", l ? ";" : "", p->confidence[l]);
    if (!rc) rc = gio_writer_printf(w, err, ",%s,%s,%s\n", MCVAR_VERSION, r->stress_from,
                                    r->stress_to);
    return rc;
}

/* target_rse runs: where the run stopped and the relative standard errors it achieved, one
 * row per requested node and confidence (progress.h). */
static int stopping(gio_writer *w, const report_options *o, const results *r, char *err) {
    const mcvar_stopping *s = r->stop;
    int nl = r->p->nconfidence;
    int rc = gio_writer_printf(w, err, "run_id,business_date,target_rse,scenario_cap,scenarios,"
                               "target_reached,node,confidence,var,var_stderr,var_rse,"
                               "expected_shortfall,es_stderr,es_rse\n");
    for (int i = 0; !rc && i < s->nodes; i++)
        for (int l = 0; !rc && l < nl; l++) {
            const mcvar_estimate *e = &s->est[(size_t)i * nl + l];
            rc = lead(w, o, r->p, NULL, err);
            if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%lld,%lld,%s,", s->target_rse, s->cap,
                                            s->scenarios, s->reached ? "yes" : "no");
            if (!rc) rc = put_field(w, r->b->node_path[i], err);
            if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                                            r->p->confidence[l], unsigned_zero(e->var),
                                            unsigned_zero(e->var_se), mcvar_rse(e->var, e->var_se),
                                            unsigned_zero(e->es), unsigned_zero(e->es_se),
                                            mcvar_rse(e->es, e->es_se));
        }
    return rc;
}

int report_sha256_file(const char *path, char *hex, char *err) {
    if (inputs_followed_sha256(path, hex)) return 0; /* a FIFO's bytes are gone */
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, GIO_ERRLEN, "cannot read %s: %s", path, strerror(errno)), -1;
    sha256_ctx c;
    unsigned char buf[65536], md[32];
    size_t got;
    sha256_init(&c);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) sha256_update(&c, buf, got);
    int bad = ferror(f);
    fclose(f);
    if (bad) return snprintf(err, GIO_ERRLEN, "cannot read %s", path), -1;
    sha256_final(&c, md);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    return 0;
}

static int run_inputs(gio_writer *w, const report_options *o, const results *r, char *err) {
    int rc = gio_writer_printf(w, err, "run_id,business_date,input,file_name,sha256\n");
    for (int i = 0; !rc && i < r->ninputs; i++) {
        char hex[65];
        const char *path = r->input_path[i], *base = strrchr(path, '/');
        if (report_sha256_file(path, hex, err)) return GIO_EIO;
        rc = lead(w, o, r->p, NULL, err);
        if (!rc) rc = gio_writer_printf(w, err, ",%s,", r->input_name[i]);
        if (!rc) rc = put_field(w, base ? base + 1 : path, err);
        if (!rc) rc = gio_writer_printf(w, err, ",%s\n", hex);
    }
    return rc;
}

static int data_quality(gio_writer *w, const report_options *o, const results *r, char *err) {
    int rc = gio_writer_printf(w, err, "run_id,business_date,file,line,factor_id,check,value,action\n");
    for (int i = 0; !rc && i < r->ndq; i++) {
        const dq_row *d = &r->dq[i];
        rc = lead(w, o, r->p, NULL, err);
        if (!rc) rc = gio_writer_write(w, ",", 1, err) || put_field(w, d->file, err);
        if (!rc) rc = gio_writer_printf(w, err, ",%lld,", d->line);
        if (!rc) rc = put_field(w, d->factor, err);
        if (!rc) rc = gio_writer_printf(w, err, ",%s,%s,reported\n", d->check, d->value);
    }
    return rc;
}

int report_clear(const char *out_dir, char *err) {
    char path[4096];
    for (int i = 0; i < F_COUNT; i++)
        for (int gz = 0; gz < 2; gz++) {
            snprintf(path, sizeof path, "%s/%s%s", out_dir, names[i], gz ? ".gz" : "");
            if (remove(path) != 0 && errno != ENOENT && errno != ENOTDIR) {
                snprintf(err, MCVAR_ERRLEN, "cannot remove the earlier result %s: %s", path,
                         strerror(errno));
                return -1;
            }
        }
    return 0;
}

int report_open_dir(const char *out_dir, char *err) {
    /* A job description names its output directory before anything is in it: create it (one
     * level, like mkdir), and accept one that exists. */
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, MCVAR_ERRLEN, "cannot create output directory %s: %s", out_dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}

static int write_one(report *rep, const report_options *o, int file, int compress,
                     int (*fn)(gio_writer *, const report_options *, const results *, char *),
                     const results *res, char *err) {
    int i = rep->written;
    const char *gz = compress ? ".gz" : "";
    snprintf(rep->final[i], sizeof rep->final[i], "%s/%s%s", o->out_dir, names[file], gz);
    snprintf(rep->tmp[i], sizeof rep->tmp[i], "%s/.%s%s.tmp.%ld", o->out_dir, names[file], gz,
             (long)getpid());
    gio_writer *w;
    char msg[GIO_ERRLEN];
    int rc = gio_writer_open(&w, rep->tmp[i], compress, o->block_size, msg);
    if (rc) return snprintf(err, MCVAR_ERRLEN, "%s", msg), -1;
    rep->written = i + 1;
    rc = fn(w, o, res, msg);
    int crc = gio_writer_close(w, rc ? NULL : msg);
    if (!rc) rc = crc;
    if (rc) snprintf(err, MCVAR_ERRLEN, "%s: %s", rep->tmp[i], msg);
    return rc;
}

int report_write(report *rep, const report_options *o, const results *res, char *err) {
    memset(rep, 0, sizeof *rep);
    if (report_open_dir(o->out_dir, err)) return -1;
    int (*fns[])(gio_writer *, const report_options *, const results *, char *) = {
        summary, distribution, contributions, node_contributions, tail_scenarios, run_row,
        run_inputs, data_quality};
    int rc = 0;
    for (int f = 0; !rc && f <= F_DQ; f++) rc = write_one(rep, o, f, o->compress, fns[f], res, err);
    if (!rc && res->stop) rc = write_one(rep, o, F_STOPPING, o->compress, stopping, res, err);
    return rc;
}

int report_write_aggregate(report *rep, const report_options *o, const results *res, char *err) {
    memset(rep, 0, sizeof *rep);
    if (report_open_dir(o->out_dir, err)) return -1;
    static const int files[] = {F_SUMMARY, F_DIST, F_NODE_CONTRIB, F_RUN, F_RUN_INPUTS};
    int (*fns[])(gio_writer *, const report_options *, const results *, char *) = {
        summary, distribution, node_contributions, run_row, run_inputs};
    int rc = 0;
    for (int f = 0; !rc && f < 5; f++) rc = write_one(rep, o, files[f], o->compress, fns[f], res, err);
    return rc;
}

typedef struct what_if_ctx {
    const params *p;
    const book *b;
    int nnodes;
    char *const *node_path;
    const double *vb, *va, *eb, *ea;
} what_if_ctx;

static const what_if_ctx *wi_ctx; /* write_one's writer signature has no room for it */

static int what_if(gio_writer *w, const report_options *o, const results *unused, char *err) {
    (void)unused;
    const what_if_ctx *c = wi_ctx;
    int rc = gio_writer_printf(w, err, "run_id,business_date,node,confidence,var_before,"
                               "var_after,incremental_var,es_before,es_after,incremental_es\n");
    for (int i = 0; !rc && i < c->nnodes; i++)
        for (int l = 0; !rc && l < c->p->nconfidence; l++) {
            size_t at = (size_t)l * c->nnodes + i;
            rc = lead(w, o, c->p, c->node_path[i], err);
            if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                                            c->p->confidence[l], unsigned_zero(c->vb[at]),
                                            unsigned_zero(c->va[at]),
                                            unsigned_zero(c->va[at] - c->vb[at]),
                                            unsigned_zero(c->eb[at]), unsigned_zero(c->ea[at]),
                                            unsigned_zero(c->ea[at] - c->eb[at]));
        }
    return rc;
}

int report_write_what_if(report *rep, const report_options *o, const params *p, const book *b,
                         int nnodes, char *const *node_path, const double *var_before,
                         const double *var_after, const double *es_before,
                         const double *es_after, char *err) {
    memset(rep, 0, sizeof *rep);
    if (report_open_dir(o->out_dir, err)) return -1;
    what_if_ctx c = {p, b, nnodes, node_path, var_before, var_after, es_before, es_after};
    wi_ctx = &c;
    int rc = write_one(rep, o, F_WHAT_IF, o->compress, what_if, NULL, err);
    wi_ctx = NULL;
    return rc;
}

void report_node_pnl_path(const char *out_dir, long pid, char *tmp, char *final, size_t len) {
    snprintf(final, len, "%s/%s.gz", out_dir, names[F_NODE_PNL]);
    snprintf(tmp, len, "%s/.%s.gz.tmp.%ld", out_dir, names[F_NODE_PNL], pid);
}

int report_adopt(report *rep, const char *tmp, const char *final, char *err) {
    if (rep->written == REPORT_MAX_FILES)
        return snprintf(err, MCVAR_ERRLEN, "too many output files"), -1;
    snprintf(rep->tmp[rep->written], sizeof rep->tmp[0], "%s", tmp);
    snprintf(rep->final[rep->written++], sizeof rep->final[0], "%s", final);
    return 0;
}

int report_commit(report *rep, char *err) {
    for (int i = 0; i < rep->written; i++)
        if (rename(rep->tmp[i], rep->final[i]) != 0) {
            snprintf(err, MCVAR_ERRLEN, "cannot rename %s to %s: %s", rep->tmp[i],
                     rep->final[i], strerror(errno));
            for (int j = 0; j < i; j++) remove(rep->final[j]); /* all or nothing */
            report_abandon(rep);
            return -1;
        }
    return 0;
}

void report_abandon(report *rep) {
    for (int i = 0; i < rep->written; i++) remove(rep->tmp[i]);
}
