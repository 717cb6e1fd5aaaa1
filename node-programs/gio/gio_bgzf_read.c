/* gio_bgzf_read.c: a source that decodes blocked gzip (BGZF) from a raw source.
 *
 * Each gzip member carries its total size in the BC extra subfield, so a whole member is
 * staged and inflated in one libdeflate call (about twice zlib's speed), with its CRC32 and
 * length checked. A file must end with the empty end-of-file member: that is how a file cut
 * at a block boundary is told apart from a complete one. A gzip member without the BC
 * subfield (ordinary gzip) is rejected with a message: it cannot be split into blocks. */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "gio_internal.h"

#define BLOCK_OUT 65536u
#define STAGE (256u * 1024u) /* > largest member (64 KiB), several members per raw read */

typedef struct bgzf_source {
    gio_source raw;
    unsigned char *in, *block;
    size_t in_pos, in_end, blk_pos, blk_len;
    uint64_t offset; /* compressed offset of the next member, for messages */
    int raw_eof, last_was_eof_block, members;
    int pending_rc;               /* an error met after some bytes were already delivered */
    int eager;                    /* return what is decoded rather than wait for the raw source */
    char pending_err[GIO_ERRLEN];
    struct libdeflate_decompressor *inflater;
    gio_counters counters;
} bgzf_source;

static unsigned le16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t le32(const unsigned char *p) {
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Makes at least n staged bytes available if the raw source has them; returns how many
 * are available, or a negative code. */
static ssize_t stage(bgzf_source *b, size_t n, char *err) {
    while (b->in_end - b->in_pos < n && !b->raw_eof) {
        if (b->in_pos > 0) {
            memmove(b->in, b->in + b->in_pos, b->in_end - b->in_pos);
            b->in_end -= b->in_pos;
            b->in_pos = 0;
        }
        ssize_t got = b->raw.read(b->raw.ctx, b->in + b->in_end, STAGE - b->in_end, err);
        if (got < 0) return got;
        if (got == 0) b->raw_eof = 1;
        b->in_end += (size_t)got;
    }
    return (ssize_t)(b->in_end - b->in_pos);
}

static int format_error(bgzf_source *b, char *err, const char *what) {
    gio_seterr(err, "%s (compressed block %d at byte offset %llu)", what, b->members,
               (unsigned long long)b->offset);
    return GIO_EFORMAT;
}

int gio_bgzf_member_size(const unsigned char *h, size_t avail, size_t *total, size_t *hdr_len,
                         const char **why) {
    if (avail < 18) return 18;
    if (h[0] != 0x1f || h[1] != 0x8b || h[2] != 8)
        return *why = "corrupt compressed block: bad gzip header", GIO_EFORMAT;
    if (h[3] != 4)
        return *why = "not blocked gzip: a gzip member without the BGZF extra field (recompress "
                      "with bgzip or gantry's writer)", GIO_EFORMAT;
    size_t xlen = le16(h + 10);
    if (avail < 12 + xlen) return (int)(12 + xlen);
    size_t bsize = 0;
    for (size_t i = 12; i + 4 <= 12 + xlen;) {
        unsigned slen = le16(h + i + 2);
        if (h[i] == 'B' && h[i + 1] == 'C' && slen == 2 && i + 6 <= 12 + xlen)
            bsize = (size_t)le16(h + i + 4) + 1;
        i += 4 + slen;
    }
    if (bsize == 0)
        return *why = "not blocked gzip: no BC subfield in the gzip extra field (recompress "
                      "with bgzip or gantry's writer)", GIO_EFORMAT;
    if (bsize < 12 + xlen + 8 + 2) return *why = "corrupt compressed block size", GIO_EFORMAT;
    *total = bsize;
    *hdr_len = 12 + xlen;
    return GIO_OK;
}

/* Parses the member at in_pos; returns its total size and header length. */
static int parse_header(bgzf_source *b, size_t *total, size_t *hdr_len, char *err) {
    for (size_t need = 18;;) {
        ssize_t avail = stage(b, need, err);
        if (avail < 0) return (int)avail;
        const char *why = "";
        int rc = gio_bgzf_member_size(b->in + b->in_pos, (size_t)avail, total, hdr_len, &why);
        if (rc < 0) return format_error(b, err, why);
        if (rc == GIO_OK) return GIO_OK;
        if ((size_t)avail < need || (size_t)rc <= need) /* the raw source has no more */
            return format_error(b, err, "truncated compressed block");
        need = (size_t)rc;
    }
}

/* Inflates the next member into out (BLOCK_OUT bytes); returns bytes, 0 at end. */
static ssize_t next_member(bgzf_source *b, unsigned char *out, char *err) {
    for (;;) {
        ssize_t avail = stage(b, 1, err);
        if (avail < 0) return avail;
        if (avail == 0) {
            if (b->members > 0 && !b->last_was_eof_block)
                return format_error(b, err, "truncated compressed file: no BGZF end-of-file "
                                            "block");
            return 0;
        }
        size_t total = 0, hdr = 0;
        int rc = parse_header(b, &total, &hdr, err);
        if (rc) return rc;
        avail = stage(b, total, err);
        if (avail < 0) return avail;
        if ((size_t)avail < total) return format_error(b, err, "truncated compressed block");
        const unsigned char *m = b->in + b->in_pos;
        uint32_t crc = le32(m + total - 8), isize = le32(m + total - 4);
        if (isize > BLOCK_OUT) return format_error(b, err, "corrupt compressed block: size");
        size_t actual = 0;
        double t0 = gio_now();
        enum libdeflate_result lr = libdeflate_deflate_decompress(
            b->inflater, m + hdr, total - hdr - 8, out, isize, &actual);
        int crc_ok = lr == LIBDEFLATE_SUCCESS && actual == isize &&
                     libdeflate_crc32(0, out, actual) == crc;
        b->counters.inflate_s += gio_now() - t0;
        if (!crc_ok) return format_error(b, err, "corrupt compressed block");
        b->in_pos += total;
        b->offset += total;
        b->members++;
        b->last_was_eof_block = isize == 0;
        if (isize > 0) return (ssize_t)isize; /* empty members (the EOF block) are skipped */
    }
}

static void sync_counters(bgzf_source *b) {
    const gio_counters *r = b->raw.counters;
    if (!r) return;
    b->counters.fs_bytes = r->fs_bytes;
    b->counters.mpi_bytes = r->mpi_bytes;
    b->counters.read_s = r->read_s;
    b->counters.exchange_s = r->exchange_s;
}

/* Whether a whole member is staged (so decoding it needs no further raw read). */
static int member_staged(const bgzf_source *b) {
    size_t total = 0, hdr = 0;
    const char *why = "";
    int rc = gio_bgzf_member_size(b->in + b->in_pos, b->in_end - b->in_pos, &total, &hdr, &why);
    return rc < 0 || (rc == GIO_OK && total <= b->in_end - b->in_pos); /* damage: report it now */
}

void gio_bgzf_set_eager(gio_source *src) { ((bgzf_source *)src->ctx)->eager = 1; }

static ssize_t bgzf_read(void *ctx, void *buf, size_t len, char *err) {
    bgzf_source *b = ctx;
    size_t done = 0;
    if (b->pending_rc) {
        gio_seterr(err, "%s", b->pending_err);
        return b->pending_rc;
    }
    while (done < len) {
        if (b->blk_pos == b->blk_len) {
            /* Eager (a followed input): hand on what is decoded rather than wait for more. */
            if (b->eager && done > 0 && !member_staged(b)) break;
            /* A caller with room for a whole block gets it without a copy. */
            int direct = len - done >= BLOCK_OUT;
            ssize_t n = next_member(b, direct ? (unsigned char *)buf + done : b->block,
                                    b->pending_err);
            if (n < 0 && done == 0) {
                gio_seterr(err, "%s", b->pending_err);
                return n;
            }
            /* Deliver the good blocks first, so the error names the line it hit. */
            if (n < 0) {
                b->pending_rc = (int)n;
                break;
            }
            if (n == 0) break;
            if (direct) {
                done += (size_t)n;
                continue;
            }
            b->blk_pos = 0;
            b->blk_len = (size_t)n;
        }
        size_t k = b->blk_len - b->blk_pos;
        if (k > len - done) k = len - done;
        memcpy((char *)buf + done, b->block + b->blk_pos, k);
        b->blk_pos += k;
        done += k;
    }
    b->counters.decoded_bytes += done;
    sync_counters(b);
    return (ssize_t)done;
}

static void bgzf_close(void *ctx) {
    bgzf_source *b = ctx;
    if (!b) return;
    if (b->raw.close) b->raw.close(b->raw.ctx);
    if (b->inflater) libdeflate_free_decompressor(b->inflater);
    free(b->in);
    free(b->block);
    free(b);
}

int gio_bgzf_source_open(gio_source *dst, gio_source *raw, const void *prefix,
                         size_t prefix_len, char *err) {
    bgzf_source *b = calloc(1, sizeof *b);
    if (!b) goto nomem;
    b->raw = *raw;
    raw->close = NULL; /* owned by b from here on */
    b->in = malloc(STAGE);
    b->block = malloc(BLOCK_OUT);
    b->inflater = libdeflate_alloc_decompressor();
    if (!b->in || !b->block || !b->inflater || prefix_len > STAGE) goto nomem;
    memcpy(b->in, prefix, prefix_len);
    b->in_end = prefix_len;
    sync_counters(b);
    dst->read = bgzf_read;
    dst->close = bgzf_close;
    dst->ctx = b;
    dst->counters = &b->counters;
    return GIO_OK;
nomem:
    if (b) bgzf_close(b);
    else if (raw->close) raw->close(raw->ctx);
    gio_seterr(err, "out of memory");
    return GIO_ENOMEM;
}
