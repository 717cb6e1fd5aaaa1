/* Shared by the gio implementation files only; not part of the public API. */
#ifndef GIO_INTERNAL_H
#define GIO_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>

#include "gio.h"

void gio_seterr(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reads exactly len bytes at offset (short only at end of file); adds to counters. */
ssize_t gio_pread_full(int fd, void *buf, size_t len, uint64_t offset, gio_counters *c,
                       char *err);

/* The BGZF member whose first avail bytes are at h: returns GIO_OK with its total size
 * (BSIZE + 1) and header length; a positive count of bytes needed to tell (more than avail);
 * or GIO_EFORMAT with what is wrong in *why. */
int gio_bgzf_member_size(const unsigned char *h, size_t avail, size_t *total, size_t *hdr_len,
                         const char **why);
/* Makes a decoder from gio_bgzf_source_open return the blocks decoded so far instead of waiting
 * on its raw source for more (a followed input, whose raw source may wait long). */
void gio_bgzf_set_eager(gio_source *src);
/* The raw follow source (regular file, FIFO or pipe; gio_follow.c); its own error
 * messages start with the path. */
int gio_follow_source_open(gio_source *src, const char *path, const gio_follow_options *o,
                           char *err);
/* A line reader over src as it is (no magic-byte detection), e.g. already decoded bytes. */
int gio_reader_wrap(gio_reader **r, gio_source *src, size_t buffer_size, int compressed,
                    char *err);

#endif
