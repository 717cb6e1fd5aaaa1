/* gio without MPI: blocked-gzip writer/reader round trips over block and buffer sizes,
 * lines longer than the buffer, and clear errors for corrupt, truncated and non-blocked
 * gzip input. Argument: a scratch directory. */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gio.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static char dir[2048];

static char *path(const char *name) {
    static char p[4][4096];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void write_file(const char *name, const void *data, size_t len, int compress,
                       size_t block) {
    gio_writer *w;
    char err[GIO_ERRLEN];
    CHECK(gio_writer_open(&w, path(name), compress, block, err) == 0, "open %s", err);
    /* Uneven write sizes cross block boundaries at odd places. */
    for (size_t at = 0; at < len;) {
        size_t n = len - at < 7777 ? len - at : 7777;
        CHECK(gio_writer_write(w, (const char *)data + at, n, err) == 0, "write %s", err);
        at += n;
    }
    CHECK(gio_writer_close(w, err) == 0, "close %s", err);
}

/* Reads name through the reader with buffer size buf, by lines or bulk, into a malloc'd
 * buffer; returns the status of the read. */
static int read_back(const char *name, size_t buf, int lines, char **out, size_t *len,
                     char *err) {
    gio_source src;
    gio_reader *r;
    int rc = gio_file_source_open(&src, path(name), err);
    if (!rc) rc = gio_reader_from_source(&r, &src, buf, err);
    if (rc) return rc;
    size_t cap = 1 << 16, n = 0;
    char *o = malloc(cap);
    for (;;) {
        char *line, tmp[5000];
        size_t l;
        ssize_t got;
        if (lines) {
            rc = gio_reader_line(r, &line, &l, err);
            if (rc) break;
        } else {
            got = gio_reader_read(r, tmp, sizeof tmp, err);
            if (got <= 0) { rc = (int)got; break; }
            line = tmp;
            l = (size_t)got;
        }
        while (n + l + 1 > cap) o = realloc(o, cap *= 2);
        memcpy(o + n, line, l);
        n += l;
        if (lines) o[n++] = '\n';
    }
    gio_reader_close(r);
    *out = o;
    *len = n;
    return rc == GIO_EOF ? GIO_OK : rc;
}

static void round_trips_match_over_block_and_buffer_sizes(void) {
    size_t len = 3 * 1000 * 1000;
    char *data = malloc(len);
    unsigned x = 1;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (i % 97 == 96) ? '\n' : (char)('a' + (x >> 16) % 26);
    }
    data[500000] = '\0'; /* binary bytes travel too */
    const size_t blocks[] = {100, 16384, GIO_BGZF_MAX_BLOCK};
    const size_t bufs[] = {4096, 65536, 1 << 20};
    for (int b = 0; b < 3; b++) {
        write_file("rt.gz", data, len, 1, blocks[b]);
        for (int u = 0; u < 3; u++)
            for (int lines = 0; lines < 2; lines++) {
                char *got = NULL, err[GIO_ERRLEN] = "";
                size_t n;
                int rc = read_back("rt.gz", bufs[u], lines, &got, &n, err);
                CHECK(rc == 0 && n == len + (lines && data[len - 1] != '\n') &&
                      memcmp(got, data, len) == 0,
                      "block %zu buffer %zu lines %d: rc %d n %zu %s", blocks[b], bufs[u],
                      lines, rc, n, err);
                free(got);
            }
    }
    free(data);
}

static void a_line_longer_than_the_buffer_grows_it(void) {
    size_t len = 300000;
    char *data = malloc(len + 2);
    memset(data, 'x', len);
    memcpy(data + len, "\ny", 2); /* and a last line without a newline */
    for (int c = 0; c < 2; c++) {
        write_file("long", data, len + 2, c, 0);
        gio_source src;
        gio_reader *r;
        char err[GIO_ERRLEN], *line;
        size_t l;
        CHECK(gio_file_source_open(&src, path("long"), err) == 0, "%s", err);
        CHECK(gio_reader_from_source(&r, &src, 4096, err) == 0, "%s", err);
        CHECK(gio_reader_line(r, &line, &l, err) == GIO_OK && l == len, "long line %zu", l);
        CHECK(gio_reader_line(r, &line, &l, err) == GIO_OK && l == 1 && line[0] == 'y', "tail");
        CHECK(gio_reader_line(r, &line, &l, err) == GIO_EOF, "eof");
        CHECK(gio_reader_line_number(r) == 2, "line number");
        CHECK(gio_reader_is_compressed(r) == c, "compression detected by magic bytes");
        gio_reader_close(r);
    }
    free(data);
}

static void expect_error(const char *name, const char *needle) {
    char *got = NULL, err[GIO_ERRLEN] = "";
    size_t n;
    int rc = read_back(name, 1 << 20, 0, &got, &n, err);
    CHECK(rc == GIO_EFORMAT && strstr(err, needle), "%s: rc %d, message '%s'", name, rc, err);
    free(got);
}

static void damaged_or_foreign_gzip_gives_a_clear_error(void) {
    size_t len = 200000;
    char *data = malloc(len);
    for (size_t i = 0; i < len; i++) data[i] = (char)('0' + (i * 7919 % 10));
    write_file("ok.gz", data, len, 1, 16384);
    FILE *f = fopen(path("ok.gz"), "rb");
    unsigned char *gz = malloc(1 << 20);
    size_t gl = fread(gz, 1, 1 << 20, f);
    fclose(f);
    unsigned char *bad = malloc(gl);
    memcpy(bad, gz, gl);
    bad[gl / 2] ^= 0x55;
    f = fopen(path("corrupt.gz"), "wb"); fwrite(bad, 1, gl, f); fclose(f);
    expect_error("corrupt.gz", "corrupt compressed block");
    f = fopen(path("cut.gz"), "wb"); fwrite(gz, 1, gl / 3, f); fclose(f);
    expect_error("cut.gz", "truncated");
    f = fopen(path("noeof.gz"), "wb"); fwrite(gz, 1, gl - 28, f); fclose(f);
    expect_error("noeof.gz", "no BGZF end-of-file block");
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    size_t pl = libdeflate_gzip_compress(c, data, len, bad, gl);
    libdeflate_free_compressor(c);
    f = fopen(path("plain.gz"), "wb"); fwrite(bad, 1, pl, f); fclose(f);
    expect_error("plain.gz", "not blocked gzip");
    free(data); free(gz); free(bad);
}

static void empty_inputs_read_as_empty(void) {
    for (int c = 0; c < 2; c++) {
        write_file("empty", "", 0, c, 0);
        struct stat st;
        stat(path("empty"), &st);
        CHECK(st.st_size == (c ? 28 : 0), "empty %s file has %lld bytes", c ? "compressed" : "plain", (long long)st.st_size);
        char *got = NULL, err[GIO_ERRLEN] = "";
        size_t n;
        CHECK(read_back("empty", 4096, 1, &got, &n, err) == 0 && n == 0, "read empty: %s", err);
        free(got);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    snprintf(dir, sizeof dir, "%s", argv[1]);
    mkdir(dir, 0755);
    round_trips_match_over_block_and_buffer_sizes();
    a_line_longer_than_the_buffer_grows_it();
    damaged_or_foreign_gzip_gives_a_clear_error();
    empty_inputs_read_as_empty();
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    else printf("all gio checks passed\n");
    return failures != 0;
}
