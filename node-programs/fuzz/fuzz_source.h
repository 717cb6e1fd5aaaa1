/* A gio byte source over memory for the fuzz targets: it hands out the input in pieces of a
 * size the input itself chooses, so block and line boundaries fall everywhere a real file
 * system or a collective read could put them. */
#ifndef GANTRY_FUZZ_SOURCE_H
#define GANTRY_FUZZ_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gio.h"

typedef struct fuzz_memory {
    const uint8_t *data;
    size_t len, pos;
    size_t piece; /* most bytes one read returns, >= 1 */
    gio_counters counters;
} fuzz_memory;

static ssize_t fuzz_memory_read(void *ctx, void *buf, size_t len, char *err) {
    (void)err;
    fuzz_memory *m = ctx;
    size_t n = m->len - m->pos;
    if (n > len) n = len;
    if (n > m->piece) n = m->piece;
    memcpy(buf, m->data + m->pos, n);
    m->pos += n;
    m->counters.fs_bytes += n;
    return (ssize_t)n;
}

static void fuzz_memory_close(void *ctx) { free(ctx); }

/* A source over data (not copied: it must outlive the source); NULL when out of memory. */
static int fuzz_memory_source(gio_source *src, const uint8_t *data, size_t len, size_t piece) {
    fuzz_memory *m = calloc(1, sizeof *m);
    if (!m) return -1;
    m->data = data;
    m->len = len;
    m->piece = piece ? piece : 1;
    src->read = fuzz_memory_read;
    src->close = fuzz_memory_close;
    src->ctx = m;
    src->counters = &m->counters;
    return 0;
}

#endif
