/* gfl_wire: the task-farm wire format (docs/task-farms.md, protocol version 2).
 *
 * Every message is one frame: a 4-byte big-endian payload length, then the payload, whose first
 * byte is the message type. Inside a payload, integers are big-endian and a string is a 4-byte
 * length followed by that many bytes (no terminator on the wire). Frames are at most
 * GFL_MAX_FRAME bytes, so a hostile or broken peer cannot make the launcher allocate without
 * bound. This file knows bytes only; sockets are gfl_main.c's business. */
#ifndef GFL_WIRE_H
#define GFL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define GFL_PROTOCOL_VERSION 2u
/* The heartbeat intervals a WELCOME may ask for (gfl_beat.h): below, a loaded node's scheduling
 * delays would read as silence; above, a lost host would go unnoticed for minutes. */
#define GFL_BEAT_MIN_MS 100u
#define GFL_BEAT_MAX_MS 60000u
#define GFL_MAX_FRAME (4u << 20)

enum gfl_type {
  GFL_HELLO = 1,   /* launcher -> dispatcher: version, secret, host, pid */
  GFL_WELCOME = 2, /* dispatcher -> launcher: version, output limit, heartbeat interval */
  GFL_REFUSE = 3,  /* dispatcher -> launcher: reason; the launcher exits */
  GFL_REQUEST = 4, /* launcher -> dispatcher: the previous task's result (if any), asks for work */
  GFL_TASK = 5,    /* dispatcher -> launcher: one task */
  GFL_DONE = 6,    /* dispatcher -> launcher: no more work; the launcher exits 0 */
  /* sessions (gfl_session.h): the dispatcher answers REQUEST with WORKER, then relays */
  GFL_WORKER = 7,      /* dispatcher -> launcher: start (again) the session's worker */
  GFL_MESSAGES = 8,    /* dispatcher -> launcher: task messages, one line each */
  GFL_ANSWERS = 9,     /* launcher -> dispatcher: the worker's answer lines, oldest first */
  GFL_WORKER_ENDED = 10, /* launcher -> dispatcher: the worker ended (how, code) */
  GFL_HEARTBEAT = 11     /* launcher -> dispatcher, every heartbeat interval after WELCOME */
};

/* A growable output buffer for building a frame. */
typedef struct gfl_out {
  unsigned char *data;
  size_t len, cap;
  int failed; /* set when an allocation failed; the frame is then not sent */
} gfl_out;

void gfl_out_init(gfl_out *o);
void gfl_out_free(gfl_out *o);
/* Starts a frame of the given type (reserves the length prefix). */
void gfl_out_begin(gfl_out *o, enum gfl_type type);
void gfl_out_u8(gfl_out *o, uint8_t v);
void gfl_out_u32(gfl_out *o, uint32_t v);
void gfl_out_u64(gfl_out *o, uint64_t v);
void gfl_out_bytes(gfl_out *o, const void *p, size_t n);
/* Fills in the length prefix; returns 0, or -1 when the frame failed or is too large. */
int gfl_out_end(gfl_out *o);

/* A cursor over a received payload; every read checks the remaining length. */
typedef struct gfl_in {
  const unsigned char *p;
  size_t left;
} gfl_in;

int gfl_in_u8(gfl_in *in, uint8_t *v);
int gfl_in_u32(gfl_in *in, uint32_t *v);
int gfl_in_u64(gfl_in *in, uint64_t *v);
/* A string, copied into a fresh NUL-terminated allocation; embedded NULs are refused, since
 * the value becomes a C string (an argument, a path). Returns 0 or -1. */
int gfl_in_str(gfl_in *in, char **out);

/* A u32 count and that many strings, into a fresh NULL-terminated array (*count entries); with
 * with_argv0, argv0 is copied in front (an argv). On failure the partial array stays in *out for
 * the caller to free. Returns 0 or -1. */
int gfl_in_strings(gfl_in *in, char ***out, size_t *count, int with_argv0, const char *argv0);

/* Reads a WELCOME's payload (after the type byte): the protocol version (must be ours), the
 * output limit (at most max_output) and the heartbeat interval in ms (GFL_BEAT_MIN_MS to
 * GFL_BEAT_MAX_MS); nothing may follow. Returns 0, or -1 for a WELCOME outside the protocol. */
int gfl_welcome_parse(gfl_in *in, uint32_t max_output, uint32_t *limit, uint32_t *beat_ms);

#endif
