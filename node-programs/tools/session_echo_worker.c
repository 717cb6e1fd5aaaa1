/* session-echo-worker: the smallest session worker (docs/task-farms.md, "Sessions"), for the
 * session benchmark and tests. It answers every message with the message itself, except:
 *
 *   sleep MS TEXT   sleeps MS milliseconds, then answers TEXT; while it sleeps its process name
 *                   (/proc/PID/comm) is "s:" and TEXT's first 13 bytes, so a test can find the
 *                   worker that is in the middle of that message and kill it
 *   pid             answers the worker's process id
 *   exit CODE       exits at once with CODE, without answering
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "line_worker.h"

static void answer(char *line, size_t len, line_out *o, void *ctx) {
  (void)ctx;
  if (strncmp(line, "sleep ", 6) == 0) {
    char *rest = NULL;
    long ms = strtol(line + 6, &rest, 10);
    if (rest && *rest == ' ') rest++;
    line_out_flush(o); /* the answers before this one are not held back by the sleep */
    char name[16];
    snprintf(name, sizeof name, "s:%s", rest ? rest : "");
    prctl(PR_SET_NAME, name);
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    prctl(PR_SET_NAME, "echo-worker");
    line_out_add(o, rest ? rest : "", rest ? strlen(rest) : 0);
  } else if (strcmp(line, "pid") == 0) {
    char b[32];
    int n = snprintf(b, sizeof b, "%ld", (long)getpid());
    line_out_add(o, b, (size_t)n);
  } else if (strncmp(line, "exit ", 5) == 0) {
    line_out_flush(o);
    _exit(atoi(line + 5));
  } else {
    line_out_add(o, line, len);
  }
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "usage: session-echo-worker (a session worker: one line in, one line out)\n");
    return 2;
  }
  prctl(PR_SET_NAME, "echo-worker");
  return line_worker_run(answer, NULL);
}
