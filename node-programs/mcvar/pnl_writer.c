/* pnl_writer.c: node_pnl.csv.gz from every rank (pnl_writer.h). */
#include "pnl_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gio.h"
#include "gio_mpi.h"

#define MEMBER_MAX 65536u

typedef struct pw {
    const dist_pnl *d;
    int me, np;
    size_t B;
    char text[4096], gz[4096];
    char *err;
    size_t errlen;
} pw;

static int fail(pw *w, const char *what, const char *path) {
    snprintf(w->err, w->errlen, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

/* RFC 4180, as report.c: a node path holding a comma, quote or line break is quoted. */
static void put_field(FILE *f, const char *s, long long *len) {
    if (!strpbrk(s, ",\"\r\n")) {
        *len += fprintf(f, "%s", s);
        return;
    }
    *len += fprintf(f, "\"");
    for (const char *p = s; *p; p++) *len += fprintf(f, *p == '"' ? "\"\"" : "%c", *p);
    *len += fprintf(f, "\"");
}

/* 1. this rank's text; returns its length or -1 */
static long long format_rows(pw *w, char *const *node_path) {
    const dist_pnl *d = w->d;
    FILE *f = fopen(w->text, "wb");
    if (!f) return fail(w, "cannot create", w->text);
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    long long len = 0;
    if (w->me == 0) {
        len += fprintf(f, "scenario");
        for (int i = 0; i < d->nnodes; i++) {
            len += fprintf(f, ",");
            put_field(f, node_path[i], &len);
        }
        len += fprintf(f, "\n");
    }
    for (long long j = 0; j < d->nloc; j++) {
        len += fprintf(f, "%lld", d->lo + j);
        for (int i = 0; i < d->nnodes; i++) /* + 0.0: never "-0" (report.c) */
            len += fprintf(f, ",%.17g", d->local[(size_t)i * (size_t)d->nloc + (size_t)j] + 0.0);
        len += fprintf(f, "\n");
    }
    if (ferror(f) | (fclose(f) != 0)) return fail(w, "cannot write", w->text);
    return len;
}

static int read_at(int fd, void *buf, size_t len, long long off) {
    char *p = buf;
    while (len > 0) {
        ssize_t got = pread(fd, p, len, (off_t)off);
        if (got <= 0) return -1;
        p += got;
        len -= (size_t)got;
        off += got;
    }
    return 0;
}

static int write_at(int fd, const void *buf, size_t len, long long off) {
    const char *p = buf;
    while (len > 0) {
        ssize_t put = pwrite(fd, p, len, (off_t)off);
        if (put <= 0) return -1;
        p += put;
        len -= (size_t)put;
        off += put;
    }
    return 0;
}

/* 2. the blocks that start in this rank's text [off, off + L) of the whole [0, T) */
static long long compress_blocks(pw *w, const int64_t *L, const char *heads, long long off,
                                 long long T) {
    long long mine = L[w->me], out = 0;
    unsigned char *block = malloc(w->B), *member = malloc(MEMBER_MAX);
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
    struct libdeflate_compressor *stored = libdeflate_alloc_compressor(0);
    int in = open(w->text, O_RDONLY), gz = open(w->gz, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (!block || !member || !z || !stored) {
        snprintf(w->err, w->errlen, "out of memory");
        out = -1;
    } else if (in < 0 || gz < 0) {
        out = fail(w, "cannot open", in < 0 ? w->text : w->gz);
    }
    long long s = (off + (long long)w->B - 1) / (long long)w->B * (long long)w->B;
    for (; out >= 0 && s < off + mine; s += (long long)w->B) {
        long long len = T - s < (long long)w->B ? T - s : (long long)w->B;
        long long own = off + mine - s < len ? off + mine - s : len;
        if (read_at(in, block, (size_t)own, s - off)) {
            out = fail(w, "cannot read", w->text);
            break;
        }
        /* the rest from the next ranks' first bytes: a block is shorter than any head */
        long long got = own;
        for (int q = w->me + 1; q < w->np && got < len; q++) {
            long long k = L[q] < len - got ? L[q] : len - got;
            memcpy(block + got, heads + (size_t)q * w->B, (size_t)k);
            got += k;
        }
        size_t total = gio_bgzf_encode_block(z, block, (size_t)len, member);
        if (total == 0) total = gio_bgzf_encode_block(stored, block, (size_t)len, member);
        if (total == 0 || write_at(gz, member, total, out)) {
            out = fail(w, "cannot write", w->gz);
            break;
        }
        out += (long long)total;
    }
    if (in >= 0) close(in);
    if (gz >= 0 && close(gz) != 0 && out >= 0) out = fail(w, "cannot write", w->gz);
    free(block);
    free(member);
    libdeflate_free_compressor(z);
    libdeflate_free_compressor(stored);
    return out;
}

/* 3. this rank's members into the output at coff; the last rank ends it */
static int place(pw *w, const char *tmp_path, long long size, long long coff, long long ctotal) {
    int in = open(w->gz, O_RDONLY), outf = open(tmp_path, O_WRONLY);
    char *buf = malloc(1 << 20);
    int rc = in < 0 || outf < 0 ? fail(w, "cannot open", in < 0 ? w->gz : tmp_path) : 0;
    if (!rc && !buf) rc = -1, snprintf(w->err, w->errlen, "out of memory");
    for (long long at = 0; !rc && at < size; at += 1 << 20) {
        size_t k = size - at < (1 << 20) ? (size_t)(size - at) : (size_t)1 << 20;
        if (read_at(in, buf, k, at) || write_at(outf, buf, k, coff + at))
            rc = fail(w, "cannot copy into", tmp_path);
    }
    if (!rc && w->me == w->np - 1 &&
        write_at(outf, gio_bgzf_eof_block, sizeof gio_bgzf_eof_block, ctotal))
        rc = fail(w, "cannot write", tmp_path);
    if (in >= 0) close(in);
    if (outf >= 0 && close(outf) != 0 && !rc) rc = fail(w, "cannot write", tmp_path);
    free(buf);
    return rc;
}

int pnl_write(const dist_pnl *d, char *const *node_path, const char *tmp_path,
              size_t block_size, char *err, size_t errlen) {
    pw w = {.d = d, .me = gio_mpi_rank(), .np = gio_mpi_size(),
            .B = block_size ? block_size : GIO_BGZF_DEFAULT_BLOCK, .err = err, .errlen = errlen};
    snprintf(w.text, sizeof w.text, "%s.text%d", tmp_path, w.me);
    snprintf(w.gz, sizeof w.gz, "%s.gz%d", tmp_path, w.me);
    int64_t *L = malloc(sizeof(int64_t) * (size_t)w.np), *C = malloc(sizeof(int64_t) * (size_t)w.np);
    char *heads = calloc((size_t)w.np, w.B), *head = calloc(1, w.B);
    int rc = !L || !C || !heads || !head ? -1 : 0;
    if (rc) snprintf(err, errlen, "out of memory");
    int fd = -1;
    if (!rc && w.me == 0 && (fd = open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
        rc = fail(&w, "cannot create", tmp_path);
    if (fd >= 0) close(fd);
    long long len = rc ? -1 : format_rows(&w, node_path);
    if ((rc = gio_mpi_agree(len < 0, NULL))) goto out;
    if ((rc = gio_mpi_allgather_i64(len, L))) goto out;
    long long off = 0, T = 0;
    for (int q = 0; q < w.np; q++) {
        if (q < w.me) off += L[q];
        T += L[q];
    }
    int in = open(w.text, O_RDONLY);
    size_t h = (size_t)len < w.B ? (size_t)len : w.B;
    rc = in < 0 || read_at(in, head, h, 0) ? fail(&w, "cannot read", w.text) : 0;
    if (in >= 0) close(in);
    if ((rc = gio_mpi_agree(rc, NULL))) goto out;
    if ((rc = gio_mpi_allgather_bytes(head, w.B, heads))) goto out;
    long long size = compress_blocks(&w, L, heads, off, T);
    if ((rc = gio_mpi_agree(size < 0, NULL))) goto out;
    if ((rc = gio_mpi_allgather_i64(size, C))) goto out;
    long long coff = 0, ctotal = 0;
    for (int q = 0; q < w.np; q++) {
        if (q < w.me) coff += C[q];
        ctotal += C[q];
    }
    rc = gio_mpi_agree(place(&w, tmp_path, size, coff, ctotal), NULL);
out:
    remove(w.text);
    remove(w.gz);
    free(L);
    free(C);
    free(heads);
    free(head);
    return rc ? -1 : 0;
}
