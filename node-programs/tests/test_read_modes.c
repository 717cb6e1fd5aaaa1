/* Every collective read mode delivers identical bytes on every rank. Run under mpirun.
 * usage: test_read_modes EXPECTED FILE... [-- EXPECTED FILE...]...
 * Each FILE (plain or blocked gzip) must decode to the plain EXPECTED file, in every mode,
 * phase-2 algorithm, access-rank count and buffer size, by bulk reads and by lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio.h"
#include "gio_mpi.h"

static int failures;

static char *slurp(const char *p, size_t *len) {
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *b = malloc(cap);
    while ((got = fread(b + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) b = realloc(b, cap *= 2);
    fclose(f);
    *len = n;
    return b;
}

static int read_all(const char *p, const gio_read_options *o, int lines, char **out,
                    size_t *len, char *err) {
    gio_reader *r;
    int rc = gio_reader_open(&r, p, o, err);
    if (rc) return rc;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap), tmp[3000];
    for (;;) {
        char *line;
        size_t l;
        if (lines) {
            if ((rc = gio_reader_line(r, &line, &l, err))) break;
        } else {
            ssize_t got = gio_reader_read(r, tmp, sizeof tmp, err);
            if (got <= 0) { rc = (int)got; break; }
            line = tmp;
            l = (size_t)got;
        }
        while (n + l + 1 > cap) b = realloc(b, cap *= 2);
        memcpy(b + n, line, l);
        n += l;
        if (lines) b[n++] = '\n';
    }
    gio_reader_close(r);
    *out = b;
    *len = n;
    return rc == GIO_EOF ? 0 : rc;
}

static void check_one(const char *p, const char *want, size_t wlen, const gio_read_options *o,
                      int lines) {
    char *got = NULL, err[GIO_ERRLEN] = "";
    size_t n = 0;
    int rc = read_all(p, o, lines, &got, &n, err);
    /* The line reader adds the newline a last line lacks. */
    size_t expect = wlen + (lines && wlen > 0 && want[wlen - 1] != '\n');
    int ok = rc == 0 && n == expect && memcmp(got, want, wlen) == 0;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL rank %d: %s mode %s phase2 %d K %d buffer %zu lines %d: rc %d "
                "got %zu bytes, want %zu %s\n", gio_mpi_rank(), p, gio_read_mode_name(o->mode),
                o->phase2, o->access_ranks, o->buffer_size, lines, rc, n, expect, err);
    }
    free(got);
}

static void check_file(const char *p, const char *want, size_t wlen) {
    const size_t bufs[] = {GIO_MIN_BUFFER, GIO_DEFAULT_BUFFER};
    int np = gio_mpi_size();
    for (int m = 0; m < 4; m++)
        for (int b = 0; b < 2; b++) {
            gio_read_options o;
            gio_read_options_default(&o);
            o.mode = (gio_read_mode)m;
            o.buffer_size = bufs[b];
            if (o.mode != GIO_TWO_PHASE) {
                check_one(p, want, wlen, &o, 0);
                check_one(p, want, wlen, &o, 1);
                continue;
            }
            const int ks[] = {0, 1, np};
            for (int ph = 0; ph < 3; ph++)
                for (int k = 0; k < 3; k++) {
                    o.phase2 = (gio_phase2)ph;
                    o.access_ranks = ks[k];
                    check_one(p, want, wlen, &o, b == 0);
                }
        }
}

int main(int argc, char **argv) {
    gio_mpi_init(&argc, &argv);
    char *want = NULL;
    size_t wlen = 0;
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0 || i == 1) {
            if (strcmp(argv[i], "--") == 0) i++;
            free(want);
            want = slurp(argv[i], &wlen);
            if (!want) { fprintf(stderr, "cannot read %s\n", argv[i]); failures++; break; }
            continue;
        }
        check_file(argv[i], want, wlen);
        files++;
    }
    free(want);
    int st = gio_mpi_agree(failures, NULL);
    if (gio_mpi_rank() == 0)
        printf(st ? "read-mode checks failed\n" : "%d files identical in every mode on %d ranks\n",
               files, gio_mpi_size());
    gio_mpi_finalize();
    return st ? 1 : 0;
}
