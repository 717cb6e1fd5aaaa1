/* libFuzzer target: gio's line reader over plain and blocked-gzip (BGZF) input, and the writer.
 *
 * The first two input bytes choose how the rest is read: byte 0 the size of the pieces the
 * source hands out (so every block and line boundary is tried), byte 1 the mode:
 *   0  lines, as mcvar reads its inputs; plain input must come back byte for byte;
 *   1  raw decoded bytes (gio_reader_read), as gio-cat reads;
 *   2  round trip: the rest is written plain or as BGZF by gio_writer, then read back as
 *      lines, and must equal what was written.
 * Corrupt compressed data must give an error, never a crash, a hang or unbounded memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_source.h"
#include "gio.h"

#define FUZZ_CHECK(c)                                                                  \
    do {                                                                               \
        if (!(c)) {                                                                    \
            fprintf(stderr, "fuzz_gio: property failed at line %d: %s\n", __LINE__, #c); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

static int is_bgzf(const uint8_t *d, size_t n) { return n >= 2 && d[0] == 0x1f && d[1] == 0x8b; }

/* Reads every line; for plain input checks that lines joined by '\n' give the input back. */
static void read_lines(const uint8_t *d, size_t n, size_t piece) {
    char err[GIO_ERRLEN] = "";
    gio_source src;
    gio_reader *r;
    if (fuzz_memory_source(&src, d, n, piece)) return;
    if (gio_reader_from_source(&r, &src, GIO_MIN_BUFFER, err) != GIO_OK) {
        FUZZ_CHECK(is_bgzf(d, n) && err[0] != '\0');
        return;
    }
    size_t at = 0; /* plain input: where the next line must start */
    uint64_t lines = 0;
    char *line;
    size_t len;
    int rc;
    while ((rc = gio_reader_line(r, &line, &len, err)) == GIO_OK) {
        lines++;
        FUZZ_CHECK(gio_reader_line_number(r) == lines);
        line[len] = '\0'; /* documented as writable */
        if (!is_bgzf(d, n)) {
            FUZZ_CHECK(at + len <= n && memcmp(d + at, line, len) == 0);
            at += len;
            FUZZ_CHECK(at == n || d[at] == '\n');
            if (at < n) at++;
        }
    }
    if (is_bgzf(d, n)) FUZZ_CHECK(rc == GIO_EOF || (rc < 0 && err[0] != '\0'));
    else FUZZ_CHECK(rc == GIO_EOF && at == n);
    gio_reader_close(r);
}

static void read_raw(const uint8_t *d, size_t n, size_t piece) {
    char err[GIO_ERRLEN] = "";
    gio_source src;
    gio_reader *r;
    if (fuzz_memory_source(&src, d, n, piece)) return;
    if (gio_reader_from_source(&r, &src, GIO_MIN_BUFFER, err) != GIO_OK) return;
    unsigned char buf[777]; /* an odd size: reads end off block boundaries */
    size_t total = 0;
    ssize_t got;
    while ((got = gio_reader_read(r, buf, sizeof buf, err)) > 0) {
        if (!is_bgzf(d, n)) FUZZ_CHECK(total + (size_t)got <= n && !memcmp(d + total, buf, (size_t)got));
        total += (size_t)got;
    }
    if (!is_bgzf(d, n)) FUZZ_CHECK(got == 0 && total == n);
    else FUZZ_CHECK(got == 0 || err[0] != '\0');
    gio_reader_close(r);
}

/* Writes d with gio_writer (BGZF when compress), reads it back and compares. */
static void round_trip(const uint8_t *d, size_t n, int compress, size_t block) {
    char err[GIO_ERRLEN] = "", path[64];
    snprintf(path, sizeof path, "/tmp/gantry-fuzz-gio-%d.tmp", (int)getpid());
    gio_writer *w;
    FUZZ_CHECK(gio_writer_open(&w, path, compress, block, err) == GIO_OK);
    size_t half = n / 2; /* two writes: the writer's own buffering is crossed too */
    FUZZ_CHECK(gio_writer_write(w, d, half, err) == GIO_OK);
    FUZZ_CHECK(gio_writer_write(w, d + half, n - half, err) == GIO_OK);
    FUZZ_CHECK(gio_writer_close(w, err) == GIO_OK);
    gio_reader *r;
    FUZZ_CHECK(gio_reader_open(&r, path, NULL, err) == GIO_OK);
    FUZZ_CHECK(gio_reader_is_compressed(r) == (compress || is_bgzf(d, n)));
    uint8_t *back = malloc(n + 1);
    FUZZ_CHECK(back != NULL);
    size_t total = 0;
    ssize_t got;
    while ((got = gio_reader_read(r, back + total, n + 1 - total, err)) > 0) total += (size_t)got;
    gio_reader_close(r);
    unlink(path);
    /* Plain data that happens to start with the gzip magic is read as (bad) blocked gzip. */
    if (!compress && is_bgzf(d, n)) {
        free(back);
        return;
    }
    FUZZ_CHECK(got == 0 && total == n && memcmp(back, d, n) == 0);
    free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    size_t piece = data[0] == 0 ? (size_t)-1 : data[0];
    int mode = data[1] % 4;
    const uint8_t *d = data + 2;
    size_t n = size - 2;
    if (mode == 0) read_lines(d, n, piece);
    else if (mode == 1) read_raw(d, n, piece);
    else round_trip(d, n, mode == 3, 64 + (size_t)data[0] * 64);
    return 0;
}
