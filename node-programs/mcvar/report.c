/* report.c: the CSV outputs (plain or blocked gzip). Numbers are printed with 17
 * significant digits, so they round-trip exactly and identical runs give identical bytes;
 * a negative zero (the VaR of a book that never moves is -0.0) is printed as 0. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"

static const char *const names[REPORT_FILES] = {"var_summary.csv", "pnl_distribution.csv",
                                                "contributions.csv"};

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

static int summary(gio_writer *w, const report_options *o, const risk_summary *r, char *err) {
    int rc = gio_writer_printf(w, err, "run_id,confidence,var,expected_shortfall,pnl_mean,"
                                       "pnl_stddev,scenarios\n");
    for (int l = 0; !rc && l < r->nlevels; l++) {
        const var_level *v = &r->level[l];
        rc = put_field(w, o->run_id, err);
        if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g,%.17g,%.17g,%.17g,%lld\n",
                                        v->confidence, unsigned_zero(v->var),
                                        unsigned_zero(v->es), unsigned_zero(r->mean),
                                        unsigned_zero(r->stddev), r->n);
    }
    return rc;
}

static int distribution(gio_writer *w, const report_options *o, const risk_summary *r,
                        const double *pnl, int bins, char *err) {
    long long *counts = malloc(sizeof *counts * (size_t)bins);
    double width;
    if (!counts) return snprintf(err, GIO_ERRLEN, "out of memory"), GIO_ENOMEM;
    risk_histogram(pnl, r->n, r, bins, counts, &width);
    int rc = gio_writer_printf(w, err, "run_id,bin,lower,upper,count\n");
    for (int b = 0; !rc && b < bins; b++) {
        double lo = r->min + b * width, hi = b == bins - 1 ? r->max : r->min + (b + 1) * width;
        rc = put_field(w, o->run_id, err);
        if (!rc) rc = gio_writer_printf(w, err, ",%d,%.17g,%.17g,%lld\n", b, unsigned_zero(lo),
                                        unsigned_zero(hi), counts[b]);
    }
    free(counts);
    return rc;
}

static int contributions(gio_writer *w, const report_options *o, const risk_summary *r,
                         const book *bk, const double *contrib, char *err) {
    int rc = gio_writer_printf(w, err, "run_id,position_id,confidence,contribution\n");
    for (int l = 0; l < r->nlevels; l++)
        for (int p = 0; !rc && p < bk->n; p++) {
            rc = put_field(w, o->run_id, err);
            if (!rc) rc = gio_writer_write(w, ",", 1, err);
            if (!rc) rc = put_field(w, bk->id[p], err);
            if (!rc) rc = gio_writer_printf(w, err, ",%.15g,%.17g\n", r->level[l].confidence,
                                            unsigned_zero(contrib[(size_t)l * bk->n + p]));
        }
    return rc;
}

int report_clear(const char *out_dir, char *err) {
    char path[4096];
    for (int i = 0; i < REPORT_FILES; i++)
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

int report_write(report *rep, const report_options *o, const risk_summary *r,
                 const double *pnl, int bins, const book *bk, const double *contrib,
                 char *err) {
    memset(rep, 0, sizeof *rep);
    /* A job description names its output directory before anything is in it: create it (one
     * level, like mkdir), and accept one that exists. */
    if (mkdir(o->out_dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, MCVAR_ERRLEN, "cannot create output directory %s: %s", o->out_dir,
                 strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; !rc && i < REPORT_FILES; i++) {
        const char *gz = o->compress ? ".gz" : "";
        snprintf(rep->final[i], sizeof rep->final[i], "%s/%s%s", o->out_dir, names[i], gz);
        snprintf(rep->tmp[i], sizeof rep->tmp[i], "%s/.%s%s.tmp.%ld", o->out_dir, names[i], gz,
                 (long)getpid());
        gio_writer *w;
        char msg[GIO_ERRLEN];
        rc = gio_writer_open(&w, rep->tmp[i], o->compress, o->block_size, msg);
        if (rc) {
            snprintf(err, MCVAR_ERRLEN, "%s", msg);
            break;
        }
        rep->written = i + 1;
        rc = i == 0 ? summary(w, o, r, msg)
           : i == 1 ? distribution(w, o, r, pnl, bins, msg)
                    : contributions(w, o, r, bk, contrib, msg);
        int crc = gio_writer_close(w, rc ? NULL : msg);
        if (!rc) rc = crc;
        if (rc) snprintf(err, MCVAR_ERRLEN, "%s: %s", rep->tmp[i], msg);
    }
    return rc;
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
