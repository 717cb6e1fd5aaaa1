/* line_worker: see line_worker.h. */
#include "line_worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct line_out {
  char *p;
  size_t len, cap;
  int failed;
};

void line_out_add(line_out *o, const char *p, size_t n) {
  if (o->failed) return;
  if (o->len + n > o->cap) {
    size_t cap = o->cap ? o->cap : 65536;
    while (cap < o->len + n) cap *= 2;
    char *q = realloc(o->p, cap);
    if (!q) {
      o->failed = 1;
      return;
    }
    o->p = q;
    o->cap = cap;
  }
  memcpy(o->p + o->len, p, n);
  o->len += n;
}

void line_out_flush(line_out *o) {
  size_t off = 0;
  while (off < o->len) {
    ssize_t w = write(1, o->p + off, o->len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      o->failed = 1;
      break;
    }
    off += (size_t)w;
  }
  o->len = 0;
}

int line_worker_run(line_answer answer, void *ctx) {
  line_out o = {0};
  size_t cap = 1 << 16, len = 0;
  char *in = malloc(cap + 1);
  if (!in) return 1;
  for (;;) {
    if (len == cap) { /* a line longer than the buffer: grow it */
      char *bigger = realloc(in, cap * 2 + 1);
      if (!bigger) break;
      in = bigger;
      cap *= 2;
    }
    ssize_t got = read(0, in + len, cap - len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    len += (size_t)got;
    size_t start = 0;
    char *nl;
    while ((nl = memchr(in + start, '\n', len - start)) != NULL) {
      *nl = '\0';
      answer(in + start, (size_t)(nl - (in + start)), &o, ctx);
      line_out_add(&o, "\n", 1);
      start = (size_t)(nl - in) + 1;
    }
    memmove(in, in + start, len - start);
    len -= start;
    line_out_flush(&o);
    if (o.failed) break;
  }
  free(in);
  free(o.p);
  return o.failed ? 1 : 0;
}
