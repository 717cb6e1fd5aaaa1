/* gio_reader.c: the buffered line reader and the read-option helpers.
 *
 * Lines are handed out of one large user-space buffer (1 MiB by default, as section 4 of
 * "Middleware and Performance Issues for Financial Risk Analytics on Blue Gene/L" found best): the source is asked for data only when the buffer runs dry, so a file read in short
 * lines costs few reads. A line longer than the buffer doubles the buffer. */
#include <stdlib.h>
#include <string.h>

#include "gio_internal.h"

struct gio_reader {
    gio_source src;
    char *buf;
    size_t cap, pos, scan, end;
    int eof, compressed;
    uint64_t line_no;
};

void gio_read_options_default(gio_read_options *o) {
    o->mode = GIO_TWO_PHASE;
    o->access_ranks = 0;
    o->phase2 = GIO_PHASE2_AUTO;
    o->buffer_size = GIO_DEFAULT_BUFFER;
}

static const char *const mode_names[] = {"naive", "root", "mpiio", "two-phase"};

int gio_parse_read_mode(const char *s, gio_read_mode *out) {
    for (int i = 0; i < 4; i++)
        if (strcmp(s, mode_names[i]) == 0) {
            *out = (gio_read_mode)i;
            return GIO_OK;
        }
    return GIO_EARG;
}

const char *gio_read_mode_name(gio_read_mode m) { return mode_names[m]; }

int gio_parse_phase2(const char *s, gio_phase2 *out) {
    if (strcmp(s, "auto") == 0) *out = GIO_PHASE2_AUTO;
    else if (strcmp(s, "mbc") == 0) *out = GIO_PHASE2_MBC;
    else if (strcmp(s, "atv") == 0) *out = GIO_PHASE2_ATV;
    else return GIO_EARG;
    return GIO_OK;
}

int gio_reader_from_source(gio_reader **out, gio_source *raw, size_t buffer_size,
                           char *err) {
    int rc = GIO_ENOMEM;
    gio_reader *r = calloc(1, sizeof *r);
    if (buffer_size < GIO_MIN_BUFFER) buffer_size = GIO_MIN_BUFFER;
    if (!r || !(r->buf = malloc(buffer_size + 1))) goto err; /* +1: line[len] writable */
    r->cap = buffer_size;
    /* Magic bytes, not the file name, say whether the data is compressed. */
    unsigned char magic[4] = {0};
    size_t got = 0;
    while (got < 2) {
        ssize_t n = raw->read(raw->ctx, magic + got, 2 - got, err);
        if (n < 0) { rc = (int)n; goto err; }
        if (n == 0) break;
        got += (size_t)n;
    }
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        r->compressed = 1;
        rc = gio_bgzf_source_open(&r->src, raw, magic, got, err);
        if (rc) { free(r->buf); free(r); return rc; }
    } else {
        r->src = *raw;
        memcpy(r->buf, magic, got);
        r->end = got;
        if (got < 2) r->eof = 1;
    }
    *out = r;
    return GIO_OK;
err:
    if (raw->close) raw->close(raw->ctx);
    if (r) free(r->buf);
    free(r);
    if (rc == GIO_ENOMEM) gio_seterr(err, "out of memory");
    return rc;
}

int gio_reader_wrap(gio_reader **out, gio_source *src, size_t buffer_size, int compressed,
                    char *err) {
    gio_reader *r = calloc(1, sizeof *r);
    if (buffer_size < GIO_MIN_BUFFER) buffer_size = GIO_MIN_BUFFER;
    if (!r || !(r->buf = malloc(buffer_size + 1))) {
        if (src->close) src->close(src->ctx);
        free(r);
        gio_seterr(err, "out of memory");
        return GIO_ENOMEM;
    }
    r->cap = buffer_size;
    r->src = *src;
    r->compressed = compressed;
    *out = r;
    return GIO_OK;
}

int gio_reader_open(gio_reader **r, const char *path, const gio_read_options *o, char *err) {
    gio_source raw;
    int rc = o ? gio_collective_source_open(&raw, path, o, err)
               : gio_file_source_open(&raw, path, err);
    if (rc) return rc;
    return gio_reader_from_source(r, &raw, o ? o->buffer_size : GIO_DEFAULT_BUFFER, err);
}

/* Moves the unread tail to the front, grows the buffer if it is full, and reads more. */
static int refill(gio_reader *r, char *err) {
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->end - r->pos);
        r->end -= r->pos;
        r->scan -= r->pos;
        r->pos = 0;
    }
    if (r->end == r->cap) {
        char *bigger = realloc(r->buf, r->cap * 2 + 1);
        if (!bigger) {
            gio_seterr(err, "out of memory for a line of %zu bytes", r->end);
            return GIO_ENOMEM;
        }
        r->buf = bigger;
        r->cap *= 2;
    }
    ssize_t n = r->src.read(r->src.ctx, r->buf + r->end, r->cap - r->end, err);
    if (n < 0) return (int)n;
    if (n == 0) r->eof = 1;
    r->end += (size_t)n;
    return GIO_OK;
}

int gio_reader_line(gio_reader *r, char **line, size_t *len, char *err) {
    for (;;) {
        char *nl = memchr(r->buf + r->scan, '\n', r->end - r->scan);
        if (nl) {
            *line = r->buf + r->pos;
            *len = (size_t)(nl - *line);
            r->pos = r->scan = (size_t)(nl - r->buf) + 1;
            r->line_no++;
            return GIO_OK;
        }
        r->scan = r->end;
        if (r->eof) {
            if (r->pos == r->end) return GIO_EOF;
            *line = r->buf + r->pos; /* a last line without '\n' is still a line */
            *len = r->end - r->pos;
            r->pos = r->scan = r->end;
            r->line_no++;
            return GIO_OK;
        }
        int rc = refill(r, err);
        if (rc) return rc;
    }
}

ssize_t gio_reader_read(gio_reader *r, void *buf, size_t len, char *err) {
    if (r->pos < r->end) {
        size_t k = r->end - r->pos < len ? r->end - r->pos : len;
        memcpy(buf, r->buf + r->pos, k);
        r->pos += k;
        if (r->scan < r->pos) r->scan = r->pos;
        return (ssize_t)k;
    }
    if (r->eof) return 0;
    ssize_t n = r->src.read(r->src.ctx, buf, len, err);
    if (n == 0) r->eof = 1;
    return n;
}

uint64_t gio_reader_line_number(const gio_reader *r) { return r->line_no; }
int gio_reader_is_compressed(const gio_reader *r) { return r->compressed; }

const gio_counters *gio_reader_counters(const gio_reader *r) { return r->src.counters; }

void gio_reader_close(gio_reader *r) {
    if (!r) return;
    if (r->src.close) r->src.close(r->src.ctx);
    free(r->buf);
    free(r);
}
