/* gio_follow.c: reading an input while its producer still writes it (gio.h, "Reading input
 * that is still being written").
 *
 * A regular file is read through a window of compressed bytes: the window's whole BGZF members
 * are handed on (the decoder above only ever sees complete blocks), and the member headers
 * are parsed here as well, because only the framing tells where a growing file ends: at its
 * first empty member, the end-of-file block. At the file's current end the source sleeps,
 * from poll_min_s doubling to poll_max_s (plain sleeps rather than inotify: they also see
 * writes made on another host of a shared file system), and gives up after timeout_s
 * without a new byte. A FIFO or pipe needs no framing: its end is the writer's close, which
 * poll() reports as POLLHUP once a writer has come and gone (Linux does not report it for a
 * FIFO no writer has opened yet, so a reader may start first). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gio_internal.h"

#define WINDOW (256u * 1024u) /* > 2 x the largest member (64 KiB): one always fits */

typedef struct follow_source {
    char *path;
    int fd, fifo; /* fifo: 0 regular file, 1 FIFO or pipe, 2 another stream (a device) */
    gio_follow_options o;
    unsigned char *win;
    size_t start, frontier, end; /* handed out < start <= frontier (whole members) <= end */
    uint64_t base;               /* file offset of win[0] */
    uint64_t handed;             /* bytes handed out so far */
    uint64_t members;            /* whole members found */
    int ended;                   /* the end-of-file block is inside [0, frontier) */
    int pending_rc;              /* damage found past the frontier: given once the whole */
    char pending_err[GIO_ERRLEN]; /* members before it are handed out */
    double last_progress, sleep_s;
    gio_counters counters;
} follow_source;

void gio_follow_options_default(gio_follow_options *o) {
    memset(o, 0, sizeof *o);
    o->timeout_s = 600;
    o->poll_min_s = 0.001;
    o->poll_max_s = 0.1;
    o->buffer_size = GIO_DEFAULT_BUFFER;
}

static void pause_for(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static void progressed(follow_source *f) {
    f->last_progress = gio_now();
    f->sleep_s = f->o.poll_min_s;
}

/* One wait at the current end; GIO_ETIMEOUT once timeout_s passed without a new byte. */
static int wait_more(follow_source *f, const char *what, char *err) {
    double idle = gio_now() - f->last_progress;
    if (idle >= f->o.timeout_s) {
        gio_seterr(err, "%s: no new data for %g s after %llu bytes (%s): is its writer still "
                        "running?", f->path, f->o.timeout_s, (unsigned long long)f->handed, what);
        return GIO_ETIMEOUT;
    }
    double s = f->sleep_s, left = f->o.timeout_s - idle;
    pause_for(s < left ? s : left);
    f->sleep_s = s * 2 < f->o.poll_max_s ? s * 2 : f->o.poll_max_s;
    return GIO_OK;
}

static void hand_out(follow_source *f, void *buf, size_t n) {
    if (f->o.tap) f->o.tap(f->o.tap_ctx, buf, n);
    f->handed += n;
}

/* ---- regular files: a window of whole BGZF members ---- */

/* Moves the window past what was handed out and reads what the file has beyond it; returns
 * the count of new bytes (0 at the current end) or an error. */
static ssize_t fill(follow_source *f, char *err) {
    if (f->start > 0) {
        memmove(f->win, f->win + f->start, f->end - f->start);
        f->base += f->start;
        f->frontier -= f->start;
        f->end -= f->start;
        f->start = 0;
    }
    char why[GIO_ERRLEN] = "";
    ssize_t n = gio_pread_full(f->fd, f->win + f->end, WINDOW - f->end, f->base + f->end,
                               &f->counters, why);
    if (n < 0) {
        gio_seterr(err, "%s: %s at byte offset %llu", f->path, why,
                   (unsigned long long)(f->base + f->end));
        return n;
    }
    if (n == 0) {
        struct stat st;
        if (fstat(f->fd, &st) == 0 && (uint64_t)st.st_size < f->base + f->end) {
            gio_seterr(err, "%s: the file shrank to %llu bytes while being read (%llu bytes "
                            "read): truncated or replaced by its writer", f->path,
                       (unsigned long long)st.st_size, (unsigned long long)(f->base + f->end));
            return GIO_EIO;
        }
    }
    f->end += (size_t)n;
    return n;
}

static uint32_t le32(const unsigned char *p) {
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Moves the frontier over every whole member now in the window, up to the end-of-file block
 * or the first damaged header (kept in pending_rc). */
static void advance(follow_source *f) {
    char *err = f->pending_err;
    while (!f->ended && !f->pending_rc && f->frontier < f->end) {
        const unsigned char *h = f->win + f->frontier;
        size_t avail = f->end - f->frontier, total = 0, hdr = 0;
        uint64_t at = f->base + f->frontier;
        if (at == 0 && avail >= 2 && !(h[0] == 0x1f && h[1] == 0x8b)) {
            gio_seterr(err, "%s: not blocked gzip: a plain file being written has no end marker, "
                            "so it cannot be followed (write it as blocked gzip, or hand it "
                            "over through a FIFO)", f->path);
            f->pending_rc = GIO_EFORMAT;
            return;
        }
        const char *why = "";
        int rc = gio_bgzf_member_size(h, avail, &total, &hdr, &why);
        if (rc < 0) {
            gio_seterr(err, "%s: %s (compressed block %llu at byte offset %llu)", f->path, why,
                       (unsigned long long)f->members, (unsigned long long)at);
            f->pending_rc = rc;
            return;
        }
        if (rc > 0 || total > avail) return; /* the rest of the member is still to come */
        f->frontier += total;
        f->members++;
        f->ended = le32(h + total - 4) == 0; /* ISIZE 0: the empty end-of-file member */
    }
}

/* After the end-of-file block nothing may follow (checked once, when the end is reached). */
static int check_nothing_after(follow_source *f, char *err) {
    struct stat st;
    uint64_t eof_end = f->base + f->frontier;
    if (f->end > f->frontier || (fstat(f->fd, &st) == 0 && (uint64_t)st.st_size > eof_end)) {
        gio_seterr(err, "%s: data after the BGZF end-of-file block at byte offset %llu: a "
                        "followed file ends at its first end-of-file block (concatenated BGZF "
                        "files cannot be followed; use a FIFO)", f->path,
                   (unsigned long long)eof_end);
        return GIO_EFORMAT;
    }
    return GIO_OK;
}

static ssize_t file_follow_read(follow_source *f, void *buf, size_t len, char *err) {
    for (;;) {
        if (f->start < f->frontier) {
            size_t n = f->frontier - f->start < len ? f->frontier - f->start : len;
            memcpy(buf, f->win + f->start, n);
            f->start += n;
            hand_out(f, buf, n);
            return (ssize_t)n;
        }
        if (f->pending_rc) {
            gio_seterr(err, "%s", f->pending_err);
            return f->pending_rc;
        }
        if (f->ended) {
            int rc = check_nothing_after(f, err);
            return rc ? rc : 0;
        }
        ssize_t got = fill(f, err);
        if (got < 0) return got;
        if (got > 0) {
            progressed(f);
            advance(f);
            continue;
        }
        char what[160];
        if (f->end > f->frontier)
            snprintf(what, sizeof what, "compressed block %llu at byte offset %llu incomplete",
                     (unsigned long long)f->members, (unsigned long long)(f->base + f->frontier));
        else
            snprintf(what, sizeof what, "no end-of-file block yet");
        int rc = wait_more(f, what, err);
        if (rc) return rc;
    }
}

/* ---- FIFOs and pipes: sequential reads to the writer's close ---- */

static ssize_t fifo_read(follow_source *f, void *buf, size_t len, char *err) {
    for (;;) {
        struct pollfd p = {f->fd, POLLIN, 0};
        double left = f->o.timeout_s - (gio_now() - f->last_progress);
        int ms = left <= 0 ? 0 : left > 1000 ? 1000000 : (int)(left * 1000) + 1;
        int rc = poll(&p, 1, ms);
        if (rc < 0 && errno == EINTR) continue;
        if (rc < 0) {
            gio_seterr(err, "%s: poll failed: %s", f->path, strerror(errno));
            return GIO_EIO;
        }
        if (rc == 0) {
            if (gio_now() - f->last_progress < f->o.timeout_s) continue;
            gio_seterr(err, "%s: no new data for %g s after %llu bytes (the FIFO's writer %s): "
                            "is it still running?", f->path, f->o.timeout_s,
                       (unsigned long long)f->handed,
                       f->handed ? "stopped writing" : "has not written yet");
            return GIO_ETIMEOUT;
        }
        double t0 = gio_now();
        ssize_t n = read(f->fd, buf, len);
        f->counters.read_s += gio_now() - t0;
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) {
            gio_seterr(err, "%s: read failed after %llu bytes: %s", f->path,
                       (unsigned long long)f->handed, strerror(errno));
            return GIO_EIO;
        }
        /* A FIFO reads 0 bytes also before its first writer: its end is POLLHUP. */
        if (n == 0 && f->fifo == 1 && !(p.revents & POLLHUP)) continue;
        if (n > 0) {
            progressed(f);
            f->counters.fs_bytes += (uint64_t)n;
            hand_out(f, buf, (size_t)n);
        }
        return n;
    }
}

static ssize_t follow_read(void *ctx, void *buf, size_t len, char *err) {
    follow_source *f = ctx;
    return f->fifo ? fifo_read(f, buf, len, err) : file_follow_read(f, buf, len, err);
}

static void follow_close(void *ctx) {
    follow_source *f = ctx;
    if (!f) return;
    if (f->fd >= 0) close(f->fd);
    free(f->win);
    free(f->path);
    free(f);
}

/* Opens path, waiting for it to appear; O_NONBLOCK so that opening a FIFO does not wait for
 * its writer (poll does, with the timeout). */
static int open_waiting(follow_source *f, char *err) {
    for (;;) {
        f->fd = open(f->path, O_RDONLY | O_NONBLOCK);
        if (f->fd >= 0) break;
        if (errno != ENOENT) {
            gio_seterr(err, "%s: cannot open: %s", f->path, strerror(errno));
            return GIO_EIO;
        }
        int rc = wait_more(f, "the file does not exist", err);
        if (rc) return rc;
    }
    struct stat st;
    if (fstat(f->fd, &st) != 0) {
        gio_seterr(err, "%s: cannot stat: %s", f->path, strerror(errno));
        return GIO_EIO;
    }
    if (S_ISDIR(st.st_mode)) {
        gio_seterr(err, "%s: is a directory", f->path);
        return GIO_EARG;
    }
    f->fifo = S_ISREG(st.st_mode) ? 0 : S_ISFIFO(st.st_mode) ? 1 : 2;
    progressed(f); /* the timeout counts again from the file's appearance */
    return GIO_OK;
}

int gio_follow_source_open(gio_source *src, const char *path, const gio_follow_options *o,
                           char *err) {
    if (!(o->timeout_s > 0) || !(o->poll_min_s > 0) || o->poll_max_s < o->poll_min_s) {
        gio_seterr(err, "%s: follow options: timeout_s and poll_min_s must be > 0 and "
                        "poll_max_s >= poll_min_s", path);
        return GIO_EARG;
    }
    follow_source *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path)) || !(f->win = malloc(WINDOW))) {
        follow_close(f);
        gio_seterr(err, "out of memory");
        return GIO_ENOMEM;
    }
    f->fd = -1;
    f->o = *o;
    progressed(f);
    int rc = open_waiting(f, err);
    if (rc) {
        follow_close(f);
        return rc;
    }
    src->read = follow_read;
    src->close = follow_close;
    src->ctx = f;
    src->counters = &f->counters;
    return GIO_OK;
}

/* ---- the reader: every message names the file ---- */

/* Over the decoder (or, for plain data, the raw source after its first bytes): puts the path
 * in front of the messages that lack it (the decoder's name only the offset and block). */
typedef struct named_source {
    gio_source inner;
    char *path;
    unsigned char pre[2]; /* plain data: the magic bytes already read */
    size_t pre_len, pre_pos;
} named_source;

static ssize_t named_read(void *ctx, void *buf, size_t len, char *err) {
    named_source *s = ctx;
    if (s->pre_pos < s->pre_len && len > 0) {
        size_t k = s->pre_len - s->pre_pos < len ? s->pre_len - s->pre_pos : len;
        memcpy(buf, s->pre + s->pre_pos, k);
        s->pre_pos += k;
        return (ssize_t)k;
    }
    char msg[GIO_ERRLEN] = "";
    ssize_t n = s->inner.read(s->inner.ctx, buf, len, msg);
    if (n < 0) {
        size_t pl = strlen(s->path);
        if (strncmp(msg, s->path, pl) == 0 && msg[pl] == ':') gio_seterr(err, "%s", msg);
        else gio_seterr(err, "%s: %s", s->path, msg);
    }
    return n;
}

static void named_close(void *ctx) {
    named_source *s = ctx;
    if (!s) return;
    if (s->inner.close) s->inner.close(s->inner.ctx);
    free(s->path);
    free(s);
}

int gio_follow_open(gio_reader **r, const char *path, const gio_follow_options *o, char *err) {
    gio_source raw;
    int rc = gio_follow_source_open(&raw, path, o, err);
    if (rc) return rc;
    named_source *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        raw.close(raw.ctx);
        gio_seterr(err, "out of memory");
        return GIO_ENOMEM;
    }
    /* Magic bytes, as gio_reader_from_source. A regular file's first bytes come only once they
     * are a whole member, so a plain regular file is refused inside the source. */
    while (s->pre_len < 2) {
        ssize_t n = raw.read(raw.ctx, s->pre + s->pre_len, 2 - s->pre_len, err);
        if (n < 0) {
            raw.close(raw.ctx);
            named_close(s);
            return (int)n;
        }
        if (n == 0) break;
        s->pre_len += (size_t)n;
    }
    int compressed = s->pre_len == 2 && s->pre[0] == 0x1f && s->pre[1] == 0x8b;
    if (compressed) {
        rc = gio_bgzf_source_open(&s->inner, &raw, s->pre, s->pre_len, err);
        s->pre_len = 0;
        if (rc) {
            named_close(s);
            return rc;
        }
        gio_bgzf_set_eager(&s->inner); /* lines as their blocks arrive, not per full buffer */
    } else {
        s->inner = raw;
    }
    gio_source named = {named_read, named_close, s, s->inner.counters};
    return gio_reader_wrap(r, &named, o->buffer_size, compressed, err);
}
