/* line_worker: the loop of a session worker (docs/task-farms.md, "Sessions"): one task message
 * per line on standard input, one answer line per message on standard output, in order.
 *
 * It reads standard input in large chunks, answers every complete line in the chunk and writes
 * the answers with one write(2) before it waits for more input: answers are never held back
 * while the worker sleeps in read(2) (the session would stall), and a batch of messages costs
 * one read and one write, not one of each per line. */
#ifndef LINE_WORKER_H
#define LINE_WORKER_H

#include <stddef.h>

/* Appends n bytes to the answer being written. */
typedef struct line_out line_out;
void line_out_add(line_out *o, const char *p, size_t n);
/* Writes the answers so far now (e.g. before sleeping in a test). */
void line_out_flush(line_out *o);

/* Called once per message with the line, without its newline, NUL-terminated (a NUL inside
 * ends it early). It must add exactly one answer, without a newline: the loop adds it. */
typedef void (*line_answer)(char *line, size_t len, line_out *o, void *ctx);

/* Runs until end of input; returns the process exit status (0, or 1 when a write failed). */
int line_worker_run(line_answer answer, void *ctx);

#endif
