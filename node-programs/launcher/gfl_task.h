/* gfl_task: runs one task with fork/exec (never a shell) and reports how it ended.
 *
 * The task runs in its own process group, with stdin from /dev/null, stderr shared with the
 * launcher (the job's standard error) and stdout captured: its last `output_limit` bytes are
 * kept for the result (the rest is discarded), so a chatty task cannot exhaust memory. A task
 * over its wall time gets SIGTERM on its whole process group, then SIGKILL after a grace. The
 * task dies with the launcher (PR_SET_PDEATHSIG), so a launcher killed with -9 leaves no
 * orphan running a task the dispatcher will hand to someone else. */
#ifndef GFL_TASK_H
#define GFL_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "gfl_wire.h"

enum gfl_how {
  GFL_EXITED = 0,    /* code = exit status */
  GFL_SIGNALED = 1,  /* code = signal number */
  GFL_TIMED_OUT = 2, /* code = signal that finally ended it */
  GFL_NOT_STARTED = 3 /* code = errno of the failed exec (or fork/pipe) */
};

typedef struct gfl_task {
  uint64_t id;
  uint32_t attempt;
  uint64_t wall_ms; /* 0: no limit */
  char *executable;
  char **argv;      /* argv[0] is the executable as given; NULL-terminated */
  size_t argc;
  char **env;       /* "NAME=VALUE", set on top of the launcher's environment */
  size_t envc;
} gfl_task;

typedef struct gfl_result {
  enum gfl_how how;
  int32_t code;
  uint64_t start_ms;    /* Unix time in milliseconds when the task started */
  uint64_t duration_us; /* wall-clock microseconds from fork to reaping */
  char *output;         /* the last bytes of stdout (malloc'd, may hold NULs) */
  size_t output_len;
} gfl_result;

/* Runs the task to its end. Returns 0 with *r filled, or -1 (message in err, size 256) when
 * the launcher itself cannot go on (out of memory). A task that cannot start is a result. */
/* Parses a TASK frame's payload (after the type byte) into t, which the caller frees with
 * gfl_task_free also on failure. Every NAME=VALUE needs its name; nothing may follow the
 * last string. Returns 0 or -1. */
int gfl_task_parse(gfl_in *in, gfl_task *t);
int gfl_task_run(const gfl_task *t, size_t output_limit, gfl_result *r, char *err);
void gfl_task_free(gfl_task *t);
void gfl_result_free(gfl_result *r);

#endif
