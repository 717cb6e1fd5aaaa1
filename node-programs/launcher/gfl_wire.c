/* gfl_wire: frame building and bounds-checked payload reading (see gfl_wire.h). */
#include "gfl_wire.h"

#include <stdlib.h>
#include <string.h>

void gfl_out_init(gfl_out *o) { memset(o, 0, sizeof *o); }

void gfl_out_free(gfl_out *o) {
  free(o->data);
  gfl_out_init(o);
}

static void reserve(gfl_out *o, size_t more) {
  if (o->failed) return;
  if (o->len + more <= o->cap) return;
  size_t cap = o->cap ? o->cap : 256;
  while (cap < o->len + more) cap *= 2;
  unsigned char *d = realloc(o->data, cap);
  if (!d) {
    o->failed = 1;
    return;
  }
  o->data = d;
  o->cap = cap;
}

void gfl_out_bytes(gfl_out *o, const void *p, size_t n) {
  reserve(o, n);
  if (o->failed) return;
  if (n) memcpy(o->data + o->len, p, n);
  o->len += n;
}

void gfl_out_u8(gfl_out *o, uint8_t v) { gfl_out_bytes(o, &v, 1); }

void gfl_out_u32(gfl_out *o, uint32_t v) {
  unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 8), (unsigned char)v};
  gfl_out_bytes(o, b, 4);
}

void gfl_out_u64(gfl_out *o, uint64_t v) {
  gfl_out_u32(o, (uint32_t)(v >> 32));
  gfl_out_u32(o, (uint32_t)v);
}

void gfl_out_begin(gfl_out *o, enum gfl_type type) {
  o->len = 0;
  o->failed = 0;
  gfl_out_u32(o, 0); /* the length, filled in by gfl_out_end */
  gfl_out_u8(o, (uint8_t)type);
}

int gfl_out_end(gfl_out *o) {
  if (o->failed || o->len < 5 || o->len - 4 > GFL_MAX_FRAME) return -1;
  uint32_t n = (uint32_t)(o->len - 4);
  o->data[0] = (unsigned char)(n >> 24);
  o->data[1] = (unsigned char)(n >> 16);
  o->data[2] = (unsigned char)(n >> 8);
  o->data[3] = (unsigned char)n;
  return 0;
}

int gfl_in_u8(gfl_in *in, uint8_t *v) {
  if (in->left < 1) return -1;
  *v = in->p[0];
  in->p++;
  in->left--;
  return 0;
}

int gfl_in_u32(gfl_in *in, uint32_t *v) {
  if (in->left < 4) return -1;
  *v = ((uint32_t)in->p[0] << 24) | ((uint32_t)in->p[1] << 16) | ((uint32_t)in->p[2] << 8) |
       (uint32_t)in->p[3];
  in->p += 4;
  in->left -= 4;
  return 0;
}

int gfl_in_u64(gfl_in *in, uint64_t *v) {
  uint32_t hi, lo;
  if (gfl_in_u32(in, &hi) || gfl_in_u32(in, &lo)) return -1;
  *v = ((uint64_t)hi << 32) | lo;
  return 0;
}

int gfl_in_str(gfl_in *in, char **out) {
  uint32_t n;
  if (gfl_in_u32(in, &n) || n > in->left) return -1;
  if (memchr(in->p, '\0', n)) return -1;
  char *s = malloc((size_t)n + 1);
  if (!s) return -1;
  memcpy(s, in->p, n);
  s[n] = '\0';
  in->p += n;
  in->left -= n;
  *out = s;
  return 0;
}

int gfl_in_strings(gfl_in *in, char ***out, size_t *count, int with_argv0,
                        const char *argv0) {
  uint32_t n;
  if (gfl_in_u32(in, &n) || n > in->left / 4) return -1;
  size_t extra = with_argv0 ? 1 : 0;
  char **v = calloc((size_t)n + extra + 1, sizeof *v);
  if (!v) return -1;
  *out = v;
  *count = 0;
  if (with_argv0) {
    v[0] = strdup(argv0);
    if (!v[0]) return -1;
    *count = 1;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (gfl_in_str(in, &v[*count])) return -1;
    (*count)++;
  }
  return 0;
}

int gfl_welcome_parse(gfl_in *in, uint32_t max_output, uint32_t *limit, uint32_t *beat_ms) {
  uint32_t version;
  if (gfl_in_u32(in, &version) || gfl_in_u32(in, limit) || gfl_in_u32(in, beat_ms)) return -1;
  if (version != GFL_PROTOCOL_VERSION || *limit > max_output) return -1;
  if (*beat_ms < GFL_BEAT_MIN_MS || *beat_ms > GFL_BEAT_MAX_MS) return -1;
  return in->left == 0 ? 0 : -1;
}
