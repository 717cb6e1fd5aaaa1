/* gfl_session: the launcher's session mode (docs/task-farms.md, "Sessions").
 *
 * Instead of a TASK, a session's dispatcher answers the launcher's first REQUEST with WORKER: a
 * long-lived program to start once and keep. The launcher then relays: the lines of MESSAGES
 * frames go to the worker's standard input, one line each, and every line the worker writes on
 * its standard output goes back, in order, as the answer to the oldest unanswered message
 * (ANSWERS frames, batched: whatever the worker wrote since the last read). So a pricing library
 * stays loaded between tasks, and the per-message cost is a pipe write and read, not a process.
 *
 * A worker that ends (crash, kill -9, exit) is reported with WORKER_ENDED; its unanswered
 * messages are the dispatcher's business (it queues them again). The launcher then waits for
 * WORKER (start it again) or DONE (exit 0). DONE while the worker runs closes its standard input
 * and gives it 2 s to exit, then SIGTERM and, 2 s later, SIGKILL to its process group. */
#ifndef GFL_SESSION_H
#define GFL_SESSION_H

#include "gfl_wire.h"

/* Parses a WORKER frame's payload (after the type byte) into a fresh argv/env; 0 or -1. */
typedef struct gfl_worker {
  uint32_t line_limit; /* the longest answer line kept, in bytes; the rest is cut off */
  char *executable;
  char **argv; /* argv[0] is the executable as given; NULL-terminated */
  size_t argc;
  char **env; /* "NAME=VALUE", set on top of the launcher's environment */
  size_t envc;
} gfl_worker;

int gfl_worker_parse(gfl_in *in, gfl_worker *w);
void gfl_worker_free(gfl_worker *w);

/* Runs the session relay over the connected socket fd, starting with worker w (taken over and
 * freed here). Returns the launcher's exit status: 0 after DONE, 3 connection lost or a message
 * outside the protocol, 4 out of memory. */
int gfl_session_run(int fd, gfl_worker *w);

#endif
