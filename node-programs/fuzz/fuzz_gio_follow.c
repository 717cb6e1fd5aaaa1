/* libFuzzer target: gio's follow reader (gio_follow_open) over a regular file holding the input,
 * as a streamed stage's consumer would meet it once its writer stopped.
 *
 * The reader waits at most a few milliseconds for more (the input never grows), then must end
 * in one of two ways: success only when the input is a blocked-gzip stream whose first empty
 * member (the end-of-file block) is its last byte, and then the decoded bytes equal the
 * ordinary reader's and every raw byte passed the tap; otherwise an error whose message names
 * the file. Never a crash, a hang or unbounded memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gio.h"

#define FUZZ_CHECK(c)                                                                          \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "fuzz_gio_follow: property failed at line %d: %s\n", __LINE__, #c); \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

typedef struct tapped {
    const uint8_t *want;
    size_t n, len;
    int same;
} tapped;

static void tap(void *ctx, const void *raw, size_t len) {
    tapped *t = ctx;
    t->same = t->same && t->n + len <= t->len && memcmp(t->want + t->n, raw, len) == 0;
    t->n += len;
}

/* Every decoded byte of path through r (bulk reads); 0 at the end, else the error status. */
static int drain(gio_reader *r, uint8_t **out, size_t *n, char *err) {
    size_t cap = 4096;
    *out = malloc(cap);
    *n = 0;
    for (;;) {
        if (*n + 777 > cap) *out = realloc(*out, cap *= 2);
        ssize_t got = gio_reader_read(r, *out + *n, 777, err);
        if (got <= 0) return (int)got;
        *n += (size_t)got;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[64], err[GIO_ERRLEN] = "";
    snprintf(path, sizeof path, "/tmp/gantry-fuzz-follow-%d.gz", (int)getpid());
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f && fwrite(data, 1, size, f) == size);
    fclose(f);
    gio_follow_options o;
    gio_follow_options_default(&o);
    o.timeout_s = 0.002;
    o.poll_min_s = o.poll_max_s = 0.0005;
    o.buffer_size = GIO_MIN_BUFFER;
    tapped t = {data, 0, size, 1};
    o.tap = tap;
    o.tap_ctx = &t;
    gio_reader *r;
    int rc = gio_follow_open(&r, path, &o, err);
    uint8_t *got = NULL;
    size_t n = 0;
    if (rc == GIO_OK) {
        rc = drain(r, &got, &n, err);
        gio_reader_close(r);
    }
    if (rc == GIO_OK) {
        FUZZ_CHECK(t.same && t.n == size);
        FUZZ_CHECK(size >= 28 && data[0] == 0x1f && data[1] == 0x8b);
        uint8_t *want = NULL;
        size_t wn = 0;
        char werr[GIO_ERRLEN] = "";
        FUZZ_CHECK(gio_reader_open(&r, path, NULL, werr) == GIO_OK);
        FUZZ_CHECK(drain(r, &want, &wn, werr) == 0);
        gio_reader_close(r);
        FUZZ_CHECK(wn == n && (n == 0 || memcmp(want, got, n) == 0));
        free(want);
    } else {
        FUZZ_CHECK(rc < 0 && strncmp(err, path, strlen(path)) == 0);
    }
    free(got);
    unlink(path);
    return 0;
}
