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

#endif
