/* var-backtest: backtests a VaR history against the daily P&L (node-programs/README.md,
 * "var-backtest"). Plain C, one process: the inputs are one row per node, date and level. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bt_input.h"
#include "bt_stats.h"
#include "gio.h"
#include "market.h"

typedef struct bt_options {
    const char *var, *pnl, *out_dir, *run_id, *business_date;
    int window, compress;
} bt_options;

static void usage(FILE *f) {
    fputs("usage: var-backtest --var-history F --pnl F --out-dir DIR [--run-id ID]\n"
          "                    [--business-date YYYY-MM-DD] [--window-days N] [--compress-output]\n"
          "Backtests a VaR history against daily P&L: exceptions, Basel traffic light, Kupiec's and\n"
          "Christoffersen's tests for every node and confidence level.\n"
          "Inputs (CSV with a header, plain or blocked gzip; other columns are ignored):\n"
          "  --var-history  business_date,node,confidence,var   (mcvar's var_summary.csv shape;\n"
          "                 var is a loss as a positive number)\n"
          "  --pnl          business_date,node,pnl_hypothetical[,pnl_actual]   (pnl_actual may be\n"
          "                 empty)\n"
          "The VaR of business day d is compared with the P&L of the next business day; business\n"
          "days are the dates present in either file. An exception is a loss beyond the VaR:\n"
          "-pnl > var.\n"
          "  --business-date D   last P&L date of the window (default: the last P&L date)\n"
          "  --window-days N     business days in the window (default 250)\n"
          "  --run-id ID         run id in every output row (default $GANTRY_JOB_ID, else local)\n"
          "  --compress-output   write blocked gzip outputs (.csv.gz)\n"
          "Outputs in --out-dir (temporary names, renamed when all are written):\n"
          "  backtest_summary.csv     run_id,business_date,node,confidence,pnl_type,window_days,\n"
          "    observations,exceptions,expected_exceptions,cumulative_probability,zone,plus_factor,\n"
          "    kupiec_lr,kupiec_p_value,n00,n01,n10,n11,independence_lr,independence_p_value,\n"
          "    conditional_coverage_lr,conditional_coverage_p_value,first_date,last_date\n"
          "  backtest_exceptions.csv  run_id,business_date,node,confidence,pnl_type,var_date,\n"
          "    pnl_date,var,pnl\n",
          f);
}

static int parse(int argc, char **argv, bt_options *o, char *err) {
    *o = (bt_options){.window = 250};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) return usage(stdout), 1;
        if (strcmp(a, "--compress-output") == 0) { o->compress = 1; continue; }
        const char **slot = strcmp(a, "--var-history") == 0 ? &o->var
                          : strcmp(a, "--pnl") == 0 ? &o->pnl
                          : strcmp(a, "--out-dir") == 0 ? &o->out_dir
                          : strcmp(a, "--run-id") == 0 ? &o->run_id
                          : strcmp(a, "--business-date") == 0 ? &o->business_date : NULL;
        int is_window = strcmp(a, "--window-days") == 0;
        if (!slot && !is_window) return snprintf(err, BT_ERRLEN, "unknown option '%s'", a), -1;
        if (!v) return snprintf(err, BT_ERRLEN, "%s needs a value", a), -1;
        i++;
        if (slot) { *slot = v; continue; }
        char *end;
        errno = 0;
        long w = strtol(v, &end, 10);
        if (errno || *end || end == v || w < 1 || w > 1000000)
            return snprintf(err, BT_ERRLEN,
                            "--window-days '%s' is not a whole number in 1..1000000", v), -1;
        o->window = (int)w;
    }
    if (!o->var || !o->pnl || !o->out_dir)
        return snprintf(err, BT_ERRLEN, "--var-history, --pnl and --out-dir are required"), -1;
    if (o->business_date && !market_valid_date(o->business_date))
        return snprintf(err, BT_ERRLEN, "--business-date '%s' is not a calendar date YYYY-MM-DD",
                        o->business_date), -1;
    if (!o->run_id) o->run_id = getenv("GANTRY_JOB_ID");
    if (!o->run_id || !*o->run_id) o->run_id = "local";
    if (strpbrk(o->run_id, ",\"\r\n"))
        return snprintf(err, BT_ERRLEN, "--run-id must not contain a comma, quote or newline"), -1;
    return 0;
}

/* Business days: every date present in either file, ascending, once. */
typedef struct calendar { char (*d)[11]; int n; } calendar;

static int cmp_date(const void *a, const void *b) { return strcmp(a, b); }

static int make_calendar(const bt_inputs *in, calendar *c) {
    c->d = malloc(sizeof *c->d * (in->nvar + in->npnl + 1));
    if (!c->d) return -1;
    size_t k = 0;
    for (size_t i = 0; i < in->nvar; i++) memcpy(c->d[k++], in->var[i].date, 11);
    for (size_t i = 0; i < in->npnl; i++) memcpy(c->d[k++], in->pnl[i].date, 11);
    qsort(c->d, k, sizeof *c->d, cmp_date);
    c->n = 0;
    for (size_t i = 0; i < k; i++)
        if (c->n == 0 || strcmp(c->d[c->n - 1], c->d[i])) memcpy(c->d[c->n++], c->d[i], 11);
    return 0;
}

/* One output file under a temporary name. */
typedef struct out_file { gio_writer *w; char tmp[4200], final[4200]; } out_file;

static int open_out(out_file *f, const bt_options *o, const char *name, const char *header,
                    char *err) {
    char msg[GIO_ERRLEN];
    const char *gz = o->compress ? ".gz" : "";
    snprintf(f->final, sizeof f->final, "%s/%s%s", o->out_dir, name, gz);
    snprintf(f->tmp, sizeof f->tmp, "%s/.%s%s.tmp.%ld", o->out_dir, name, gz, (long)getpid());
    if (gio_writer_open(&f->w, f->tmp, o->compress, GIO_BGZF_DEFAULT_BLOCK, msg) ||
        gio_writer_printf(f->w, msg, "%s\n", header))
        return snprintf(err, BT_ERRLEN, "%s: %s", f->tmp, msg), -1;
    return 0;
}

/* The observations of one node, confidence level and P&L type in the window. */
typedef struct series {
    int n;
    unsigned char *hit;
    int *pnl_day;              /* calendar index of each observation's P&L date */
    const bt_var_row **var;
    double *pnl;
} series;

static const bt_pnl_row *find_pnl(const bt_inputs *in, size_t lo, size_t hi, const char *date) {
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        int c = strcmp(in->pnl[m].date, date);
        if (!c) return &in->pnl[m];
        if (c < 0) lo = m + 1; else hi = m;
    }
    return NULL;
}

static const bt_var_row *find_var(const bt_inputs *in, size_t lo, size_t hi, const char *date) {
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        int c = strcmp(in->var[m].date, date);
        if (!c) return &in->var[m];
        if (c < 0) lo = m + 1; else hi = m;
    }
    return NULL;
}

/* The shortest of %.15g, %.16g, %.17g that reads back as v: exact, and 0.1 stays 0.1. */
static void fmt_num(char *buf, size_t n, double v) {
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v == 0 ? 0.0 : v); /* no "-0" */
        if (strtod(buf, NULL) == v) return;
    }
}

static void fmt_opt(char *buf, size_t n, int has, double v) {
    if (has) fmt_num(buf, n, v); else buf[0] = 0;
}

static int write_group(out_file *sum, out_file *exc, const bt_options *o, const char *bdate,
                       const calendar *cal, const series *s, const bt_var_row *v,
                       const char *type, char *err) {
    char msg[GIO_ERRLEN];
    double p = 1 - v->confidence;
    bt_result r;
    bt_evaluate(s->hit, s->n, p, &r);
    char pf[40], lp[40], pp[40], li[40], pi[40], lc[40], pc[40], cp[40], tr[80], ex[40];
    snprintf(ex, sizeof ex, "%.15g", r.n * p); /* n (1 - c): 250 x 0.01 reads 2.5 */
    int any = s->n > 0;
    fmt_opt(cp, sizeof cp, any, r.cum_prob);
    fmt_opt(pf, sizeof pf, any && r.has_plus, r.plus_factor);
    fmt_opt(lp, sizeof lp, any, r.lr_pof);
    fmt_opt(pp, sizeof pp, any, r.p_pof);
    fmt_opt(li, sizeof li, r.has_ind, r.lr_ind);
    fmt_opt(pi, sizeof pi, r.has_ind, r.p_ind);
    fmt_opt(lc, sizeof lc, r.has_ind, r.lr_cc);
    fmt_opt(pc, sizeof pc, r.has_ind, r.p_cc);
    if (r.has_ind) snprintf(tr, sizeof tr, "%d,%d,%d,%d", r.n00, r.n01, r.n10, r.n11);
    else snprintf(tr, sizeof tr, ",,,");
    if (gio_writer_printf(sum->w, msg,
                          "%s,%s,%s,%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
                          o->run_id, bdate, v->node, v->conf_text, type, o->window, r.n, r.x,
                          ex, cp, any ? bt_zone_name(r.zone) : "", pf, lp, pp, tr, li, pi,
                          lc, pc, any ? cal->d[s->pnl_day[0]] : "",
                          any ? cal->d[s->pnl_day[s->n - 1]] : ""))
        return snprintf(err, BT_ERRLEN, "%s: %s", sum->tmp, msg), -1;
    for (int i = 0; i < s->n; i++) {
        char vs[40], ps[40];
        if (!s->hit[i]) continue;
        fmt_num(vs, sizeof vs, s->var[i]->var);
        fmt_num(ps, sizeof ps, s->pnl[i]);
        if (gio_writer_printf(exc->w, msg, "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", o->run_id, bdate,
                              v->node, v->conf_text, type, s->var[i]->date,
                              cal->d[s->pnl_day[i]], vs, ps))
            return snprintf(err, BT_ERRLEN, "%s: %s", exc->tmp, msg), -1;
    }
    return 0;
}

static int run(const bt_options *o, const bt_inputs *in, const calendar *cal, out_file *sum,
               out_file *exc, char *err) {
    /* The window: the last `window` business days up to the business date. */
    int end = cal->n - 1;
    const char *bdate = o->business_date;
    if (!bdate) {
        bdate = in->npnl ? in->pnl[0].date : "";
        for (size_t i = 1; i < in->npnl; i++)
            if (strcmp(in->pnl[i].date, bdate) > 0) bdate = in->pnl[i].date;
    }
    while (end >= 0 && strcmp(cal->d[end], bdate) > 0) end--;
    int start = end - o->window + 1;
    if (start < 1) start = 1; /* the first business day has no VaR of the day before */
    int cap = end - start + 1 > 0 ? end - start + 1 : 0;
    series s = {0};
    s.hit = malloc((size_t)cap + 1);
    s.pnl_day = malloc(sizeof *s.pnl_day * ((size_t)cap + 1));
    s.var = malloc(sizeof *s.var * ((size_t)cap + 1));
    s.pnl = malloc(sizeof *s.pnl * ((size_t)cap + 1));
    int rc = -1;
    if (!s.hit || !s.pnl_day || !s.var || !s.pnl) {
        snprintf(err, BT_ERRLEN, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < in->nvar;) {
        size_t ge = g + 1; /* the group [g, ge): one node and confidence level */
        while (ge < in->nvar && !strcmp(in->var[ge].node, in->var[g].node) &&
               in->var[ge].confidence == in->var[g].confidence)
            ge++;
        const char *node = in->var[g].node;
        size_t plo = 0, phi = in->npnl; /* the node's P&L rows [plo, phi) */
        while (plo < phi) {
            size_t m = plo + (phi - plo) / 2;
            if (strcmp(in->pnl[m].node, node) < 0) plo = m + 1; else phi = m;
        }
        phi = plo;
        while (phi < in->npnl && !strcmp(in->pnl[phi].node, node)) phi++;
        for (int actual = 0; actual < 2; actual++) {
            s.n = 0;
            for (int t = start; t <= end; t++) {
                const bt_pnl_row *p = find_pnl(in, plo, phi, cal->d[t]);
                const bt_var_row *v = find_var(in, g, ge, cal->d[t - 1]);
                if (!p || !v || (actual && !p->has_actual)) continue;
                double pnl = actual ? p->actual : p->hypothetical;
                s.hit[s.n] = -pnl > v->var;
                s.pnl_day[s.n] = t;
                s.var[s.n] = v;
                s.pnl[s.n++] = pnl;
            }
            /* Actual P&L rows only where the node has actual P&L in the window. */
            if (actual && s.n == 0) continue;
            if (write_group(sum, exc, o, bdate, cal, &s, &in->var[g],
                            actual ? "actual" : "hypothetical", err))
                goto done;
        }
        g = ge;
    }
    rc = 0;
done:
    free(s.hit);
    free(s.pnl_day);
    free(s.var);
    free(s.pnl);
    return rc;
}

int main(int argc, char **argv) {
    bt_options o;
    char err[BT_ERRLEN], msg[GIO_ERRLEN];
    int prc = parse(argc, argv, &o, err);
    if (prc > 0) return 0;
    if (prc < 0) { fprintf(stderr, "var-backtest: %s (see --help)\n", err); return 2; }
    bt_inputs in = {0};
    calendar cal = {0};
    out_file f[2] = {{0}};
    int opened = 0, rc = 1;
    if (bt_read_var(o.var, &in, err) || bt_read_pnl(o.pnl, &in, err)) goto fail;
    if (make_calendar(&in, &cal)) { snprintf(err, sizeof err, "out of memory"); goto fail; }
    if (open_out(&f[0], &o, "backtest_summary.csv",
                 "run_id,business_date,node,confidence,pnl_type,window_days,observations,"
                 "exceptions,expected_exceptions,cumulative_probability,zone,plus_factor,"
                 "kupiec_lr,kupiec_p_value,n00,n01,n10,n11,independence_lr,independence_p_value,"
                 "conditional_coverage_lr,conditional_coverage_p_value,first_date,last_date",
                 err))
        goto fail;
    opened = 1;
    if (open_out(&f[1], &o, "backtest_exceptions.csv",
                 "run_id,business_date,node,confidence,pnl_type,var_date,pnl_date,var,pnl", err))
        goto fail;
    opened = 2;
    if (run(&o, &in, &cal, &f[0], &f[1], err)) goto fail;
    for (int i = 0; i < 2; i++) {
        gio_writer *w = f[i].w;
        f[i].w = NULL;
        if (gio_writer_close(w, msg)) {
            snprintf(err, sizeof err, "%s: %s", f[i].tmp, msg);
            goto fail;
        }
    }
    /* The exceptions first, the summary last: a summary in the directory means both are
     * complete; if its rename fails, the exceptions file is taken back. */
    for (int i = 1; i >= 0; i--)
        if (rename(f[i].tmp, f[i].final)) {
            snprintf(err, sizeof err, "cannot rename %s to %s: %s", f[i].tmp, f[i].final,
                     strerror(errno));
            if (i == 0) remove(f[1].final);
            goto fail;
        }
    opened = 0;
    rc = 0;
fail:
    for (int i = 0; i < opened; i++) {
        if (f[i].w) gio_writer_close(f[i].w, msg);
        remove(f[i].tmp);
    }
    if (rc) fprintf(stderr, "var-backtest: %s\n", err);
    free(cal.d);
    bt_inputs_free(&in);
    return rc;
}
