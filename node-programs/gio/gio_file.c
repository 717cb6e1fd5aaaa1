/* gio_file.c: the plain POSIX file source, plus helpers shared by the implementation
 * (error formatting, clock, full-length pread). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gio_internal.h"

void gio_seterr(char *err, const char *fmt, ...) {
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, GIO_ERRLEN, fmt, ap);
    va_end(ap);
}

double gio_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

ssize_t gio_pread_full(int fd, void *buf, size_t len, uint64_t offset, gio_counters *c,
                       char *err) {
    double t0 = gio_now();
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            gio_seterr(err, "read failed: %s", strerror(errno));
            return GIO_EIO;
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    if (c) {
        c->fs_bytes += got;
        c->read_s += gio_now() - t0;
    }
    return (ssize_t)got;
}

double gio_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct file_source {
    int fd;
    uint64_t offset;
    gio_counters counters;
} file_source;

static ssize_t file_read(void *ctx, void *buf, size_t len, char *err) {
    file_source *f = ctx;
    ssize_t n = gio_pread_full(f->fd, buf, len, f->offset, &f->counters, err);
    if (n > 0) f->offset += (uint64_t)n;
    return n;
}

static void file_close(void *ctx) {
    file_source *f = ctx;
    if (!f) return;
    close(f->fd);
    free(f);
}

int gio_file_source_open(gio_source *src, const char *path, char *err) {
    file_source *f = calloc(1, sizeof *f);
    if (!f) {
        gio_seterr(err, "out of memory");
        return GIO_ENOMEM;
    }
    f->fd = open(path, O_RDONLY);
    if (f->fd < 0) {
        gio_seterr(err, "cannot open: %s", strerror(errno));
        free(f);
        return GIO_EIO;
    }
    src->read = file_read;
    src->close = file_close;
    src->ctx = f;
    src->counters = &f->counters;
    return GIO_OK;
}

