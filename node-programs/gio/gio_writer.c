/* gio_writer.c: buffered output, plain or blocked gzip (BGZF).
 *
 * Each block of at most block_size bytes becomes one complete gzip member with the BC extra
 * subfield (BSIZE = member size - 1), and the file ends with bgzip's 28-byte empty member,
 * so zcat, gzip -t and bgzip -d read the output and gio reads it back block by block. The
 * caller writes to a temporary name and renames once the job agreed on success. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio_internal.h"

#define MEMBER_MAX 65536u
#define HEADER_LEN 18u
#define TRAILER_LEN 8u

const unsigned char gio_bgzf_eof_block[28] = {
    0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, 0xff, 0x06, 0, 0x42, 0x43,
    0x02, 0,    0x1b, 0,    0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0};

struct gio_writer {
    FILE *f;
    int compress;
    size_t block_size, used;
    unsigned char *block, *member;
    struct libdeflate_compressor *deflater, *storer;
};

static void put_le(unsigned char *p, uint32_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

size_t gio_bgzf_encode_block(void *compressor, const void *data, size_t len, void *out) {
    unsigned char *m = out;
    static const unsigned char head[HEADER_LEN] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff,
                                                   6,    0,    'B', 'C', 2, 0, 0, 0};
    memcpy(m, head, HEADER_LEN);
    size_t clen = libdeflate_deflate_compress(compressor, data, len, m + HEADER_LEN,
                                              MEMBER_MAX - HEADER_LEN - TRAILER_LEN);
    if (clen == 0) return 0; /* did not fit: the caller stores it uncompressed */
    size_t total = HEADER_LEN + clen + TRAILER_LEN;
    put_le(m + 16, (uint32_t)(total - 1), 2);
    put_le(m + HEADER_LEN + clen, libdeflate_crc32(0, data, len), 4);
    put_le(m + HEADER_LEN + clen + 4, (uint32_t)len, 4);
    return total;
}

static int flush_block(gio_writer *w, char *err) {
    if (w->used == 0) return GIO_OK;
    if (!w->compress) {
        if (fwrite(w->block, 1, w->used, w->f) != w->used) goto ioerr;
        w->used = 0;
        return GIO_OK;
    }
    size_t total = gio_bgzf_encode_block(w->deflater, w->block, w->used, w->member);
    /* Incompressible data: level 0 (stored) always fits since block <= 65280 bytes. */
    if (total == 0) total = gio_bgzf_encode_block(w->storer, w->block, w->used, w->member);
    if (total == 0) {
        gio_seterr(err, "block of %zu bytes does not fit a BGZF member", w->used);
        return GIO_EARG;
    }
    if (fwrite(w->member, 1, total, w->f) != total) goto ioerr;
    w->used = 0;
    return GIO_OK;
ioerr:
    gio_seterr(err, "write failed: %s", strerror(errno));
    return GIO_EIO;
}

int gio_writer_open(gio_writer **out, const char *tmp_path, int compress, size_t block_size,
                    char *err) {
    if (block_size == 0) block_size = GIO_BGZF_DEFAULT_BLOCK;
    if (compress && block_size > GIO_BGZF_MAX_BLOCK) {
        gio_seterr(err, "block size %zu exceeds the BGZF limit of %u bytes", block_size,
                   GIO_BGZF_MAX_BLOCK);
        return GIO_EARG;
    }
    gio_writer *w = calloc(1, sizeof *w);
    if (!w) goto nomem;
    w->compress = compress;
    w->block_size = compress ? block_size : (size_t)GIO_DEFAULT_BUFFER;
    w->block = malloc(w->block_size);
    w->member = malloc(MEMBER_MAX);
    if (!w->block || !w->member) goto nomem;
    if (compress) {
        w->deflater = libdeflate_alloc_compressor(6);
        w->storer = libdeflate_alloc_compressor(0);
        if (!w->deflater || !w->storer) goto nomem;
    }
    w->f = fopen(tmp_path, "wb");
    if (!w->f) {
        gio_seterr(err, "cannot create %s: %s", tmp_path, strerror(errno));
        gio_writer_close(w, NULL);
        return GIO_EIO;
    }
    *out = w;
    return GIO_OK;
nomem:
    gio_writer_close(w, NULL);
    gio_seterr(err, "out of memory");
    return GIO_ENOMEM;
}

int gio_writer_write(gio_writer *w, const void *buf, size_t len, char *err) {
    const char *p = buf;
    while (len > 0) {
        size_t k = w->block_size - w->used;
        if (k > len) k = len;
        memcpy(w->block + w->used, p, k);
        w->used += k;
        p += k;
        len -= k;
        if (w->used == w->block_size) {
            int rc = flush_block(w, err);
            if (rc) return rc;
        }
    }
    return GIO_OK;
}

int gio_writer_printf(gio_writer *w, char *err, const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line) {
        gio_seterr(err, "output line too long");
        return GIO_EARG;
    }
    return gio_writer_write(w, line, (size_t)n, err);
}

int gio_writer_close(gio_writer *w, char *err) {
    if (!w) return GIO_OK;
    int rc = GIO_OK;
    if (w->f) {
        rc = flush_block(w, err);
        if (rc == GIO_OK && w->compress &&
            fwrite(gio_bgzf_eof_block, 1, sizeof gio_bgzf_eof_block, w->f) !=
                sizeof gio_bgzf_eof_block) {
            gio_seterr(err, "write failed: %s", strerror(errno));
            rc = GIO_EIO;
        }
        if (fclose(w->f) != 0 && rc == GIO_OK) {
            gio_seterr(err, "close failed: %s", strerror(errno));
            rc = GIO_EIO;
        }
    }
    if (w->deflater) libdeflate_free_compressor(w->deflater);
    if (w->storer) libdeflate_free_compressor(w->storer);
    free(w->block);
    free(w->member);
    free(w);
    return rc;
}
