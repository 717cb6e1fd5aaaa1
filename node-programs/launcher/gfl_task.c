/* gfl_task: one task's life, from fork to reaping (see gfl_task.h).
 *
 * Waiting uses poll(2) on two descriptors: the stdout pipe and a pidfd (Linux 5.3), so the
 * launcher learns of the task's exit even when the task closed stdout early or handed it to a
 * background child, and the wall-time deadline is one poll timeout, without signals. */
#define _GNU_SOURCE
#include "gfl_task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GFL_KILL_GRACE_MS 2000

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t epoch_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The child's side: never returns. Only async-signal-safe calls matter little here, since the
 * launcher is single-threaded; errno of a failed exec goes back through the CLOEXEC pipe. */
static void child(const gfl_task *t, int out_w, int err_w) {
  int e;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  setpgid(0, 0);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0) goto fail;
  for (size_t i = 0; i < t->envc; i++) {
    if (putenv(t->env[i]) != 0) goto fail;
  }
  signal(SIGPIPE, SIG_DFL);
  execvp(t->executable, t->argv);
fail:
  e = errno;
  if (write(err_w, &e, sizeof e) < 0) { /* nothing more to do: the parent sees code 0 */
  }
  _exit(127);
}

/* Keeps the last `limit` bytes seen, in order, in r->output. */
static void keep_tail(gfl_result *r, size_t limit, const char *buf, size_t n) {
  if (limit == 0) return;
  if (n >= limit) {
    memcpy(r->output, buf + (n - limit), limit);
    r->output_len = limit;
    return;
  }
  if (r->output_len + n > limit) {
    size_t drop = r->output_len + n - limit;
    memmove(r->output, r->output + drop, r->output_len - drop);
    r->output_len -= drop;
  }
  memcpy(r->output + r->output_len, buf, n);
  r->output_len += n;
}

static int pidfd_of(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/* Reads stdout and waits for the exit or the deadline; returns the wait status. */
static int supervise(pid_t pid, int out_r, uint64_t wall_ms, size_t limit, gfl_result *r,
                     int *timed_out) {
  int pfd = pidfd_of(pid);
  uint64_t t0 = now_us();
  int stage = 0; /* 0 running, 1 SIGTERM sent, 2 SIGKILL sent */
  uint64_t next_deadline = wall_ms ? t0 + wall_ms * 1000u : 0;
  char buf[8192];
  int status = 0;
  for (;;) {
    struct pollfd p[2] = {{out_r, POLLIN, 0}, {pfd, POLLIN, 0}};
    int timeout = -1;
    if (next_deadline) {
      uint64_t now = now_us();
      timeout = now >= next_deadline ? 0 : (int)((next_deadline - now + 999) / 1000);
    }
    if (pfd < 0 && timeout < 0) timeout = 50; /* no pidfd: poll the child's state */
    int n = poll(p, 2, timeout);
    if (n < 0 && errno != EINTR) break;
    if (out_r >= 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t got = read(out_r, buf, sizeof buf);
      if (got > 0) {
        keep_tail(r, limit, buf, (size_t)got);
      } else if (got == 0 || errno != EINTR) {
        close(out_r);
        out_r = -1;
      }
    }
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (next_deadline && now_us() >= next_deadline) {
      *timed_out = 1;
      kill(-pid, stage == 0 ? SIGTERM : SIGKILL);
      kill(pid, stage == 0 ? SIGTERM : SIGKILL);
      stage++;
      next_deadline = stage == 1 ? now_us() + GFL_KILL_GRACE_MS * 1000u : 0;
    }
  }
  /* the output the task wrote just before exiting is still in the pipe */
  while (out_r >= 0) {
    ssize_t got = read(out_r, buf, sizeof buf);
    if (got > 0) {
      keep_tail(r, limit, buf, (size_t)got);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    close(out_r);
    out_r = -1;
  }
  if (pfd >= 0) close(pfd);
  kill(-pid, SIGKILL); /* whatever the task left behind in its group */
  return status;
}

int gfl_task_run(const gfl_task *t, size_t limit, gfl_result *r, char *err) {
  memset(r, 0, sizeof *r);
  r->output = malloc(limit ? limit : 1);
  if (!r->output) {
    snprintf(err, 256, "out of memory for a %zu-byte output buffer", limit);
    return -1;
  }
  r->start_ms = epoch_ms();
  uint64_t t0 = now_us();
  int out[2], exec_err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    r->how = GFL_NOT_STARTED;
    r->code = errno;
    return 0;
  }
  if (pipe2(exec_err, O_CLOEXEC) != 0) {
    r->how = GFL_NOT_STARTED;
    r->code = errno;
    close(out[0]);
    close(out[1]);
    return 0;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) child(t, out[1], exec_err[1]);
  close(out[1]);
  close(exec_err[1]);
  if (pid < 0) {
    r->how = GFL_NOT_STARTED;
    r->code = errno;
    close(out[0]);
    close(exec_err[0]);
    return 0;
  }
  int timed_out = 0;
  int status = supervise(pid, out[0], t->wall_ms, limit, r, &timed_out);
  int exec_errno = 0;
  ssize_t got = read(exec_err[0], &exec_errno, sizeof exec_errno);
  close(exec_err[0]);
  r->duration_us = now_us() - t0;
  if (got == (ssize_t)sizeof exec_errno) {
    r->how = GFL_NOT_STARTED;
    r->code = exec_errno;
  } else if (timed_out) {
    r->how = GFL_TIMED_OUT;
    r->code = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  } else if (WIFSIGNALED(status)) {
    r->how = GFL_SIGNALED;
    r->code = WTERMSIG(status);
  } else {
    r->how = GFL_EXITED;
    r->code = WEXITSTATUS(status);
  }
  return 0;
}

int gfl_task_parse(gfl_in *in, gfl_task *t) {
  memset(t, 0, sizeof *t);
  if (gfl_in_u64(in, &t->id) || gfl_in_u32(in, &t->attempt) || gfl_in_u64(in, &t->wall_ms) ||
      gfl_in_str(in, &t->executable) || t->executable[0] == '\0')
    return -1;
  if (gfl_in_strings(in, &t->argv, &t->argc, 1, t->executable)) return -1;
  if (gfl_in_strings(in, &t->env, &t->envc, 0, NULL)) return -1;
  for (size_t i = 0; i < t->envc; i++) {
    char *eq = strchr(t->env[i], '=');
    if (!eq || eq == t->env[i]) return -1;
  }
  return in->left == 0 ? 0 : -1;
}

void gfl_task_free(gfl_task *t) {
  free(t->executable);
  for (size_t i = 0; i < t->argc; i++) free(t->argv[i]);
  free(t->argv);
  for (size_t i = 0; i < t->envc; i++) free(t->env[i]);
  free(t->env);
  memset(t, 0, sizeof *t);
}

void gfl_result_free(gfl_result *r) {
  free(r->output);
  memset(r, 0, sizeof *r);
}
