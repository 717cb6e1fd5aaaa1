/* gfl_session: the launcher's relay between a session's dispatcher and its long-lived worker
 * (see gfl_session.h and docs/task-farms.md, "Sessions").
 *
 * One poll(2) loop over four descriptors: the dispatcher's socket, the worker's standard input
 * (non-blocking: a worker busy writing answers must never deadlock against a launcher busy
 * writing it messages), its standard output and a pidfd for its exit. Everything read in one
 * turn is forwarded in one frame, which is the batching that keeps a message's cost in
 * microseconds. Frames go out through gfl_send, under the lock the heartbeat thread shares. */
#define _GNU_SOURCE
#include "gfl_session.h"

#include "gfl_beat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GFS_GRACE_MS 2000
#define GFS_ANSWERS_FLUSH (1u << 20) /* an ANSWERS frame is sent once it holds this much */
#define GFS_MAX_QUEUED (1u << 20)   /* the most unanswered messages a launcher accepts */

typedef struct {
  unsigned char *p;
  size_t off, len, cap;
} gfs_buf;

typedef struct {
  int fd; /* the dispatcher */
  gfs_buf sock_in;
  /* the worker; pid 0 when none runs */
  pid_t pid;
  int in_w, out_r, pidfd;
  uint32_t line_limit;
  gfs_buf to_worker;
  /* ids of the messages given to the worker and not yet answered, oldest first (a ring) */
  uint64_t *ids;
  size_t ids_head, ids_len, ids_cap;
  /* the answer line being read */
  unsigned char *line;
  size_t line_len;
  int truncated;
  /* the ANSWERS frame being built */
  gfl_out answers;
  uint32_t answer_count;
  int oom;
} gfs;

static int buf_reserve(gfs_buf *b, size_t more) {
  if (b->off > 0 && b->off == b->len) b->off = b->len = 0;
  if (b->len + more <= b->cap) return 0;
  if (b->off > 0) { /* slide the unread bytes to the front first */
    memmove(b->p, b->p + b->off, b->len - b->off);
    b->len -= b->off;
    b->off = 0;
    if (b->len + more <= b->cap) return 0;
  }
  size_t cap = b->cap ? b->cap : 65536;
  while (cap < b->len + more) cap *= 2;
  unsigned char *p = realloc(b->p, cap);
  if (!p) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int gfl_worker_parse(gfl_in *in, gfl_worker *w) {
  memset(w, 0, sizeof *w);
  if (gfl_in_u32(in, &w->line_limit) || w->line_limit == 0 || w->line_limit > GFL_MAX_FRAME / 4 ||
      gfl_in_str(in, &w->executable) || w->executable[0] == '\0')
    return -1;
  if (gfl_in_strings(in, &w->argv, &w->argc, 1, w->executable)) return -1;
  if (gfl_in_strings(in, &w->env, &w->envc, 0, NULL)) return -1;
  for (size_t i = 0; i < w->envc; i++) {
    char *eq = strchr(w->env[i], '=');
    if (!eq || eq == w->env[i]) return -1;
  }
  return in->left == 0 ? 0 : -1;
}

void gfl_worker_free(gfl_worker *w) {
  free(w->executable);
  for (size_t i = 0; w->argv && i < w->argc; i++) free(w->argv[i]);
  free(w->argv);
  for (size_t i = 0; w->env && i < w->envc; i++) free(w->env[i]);
  free(w->env);
  memset(w, 0, sizeof *w);
}

static void child(const gfl_worker *w, int in_r, int out_w, int err_w) {
  int e;
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* dies with the launcher: no orphan keeps a message */
  setpgid(0, 0);
  if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0) goto fail;
  for (size_t i = 0; i < w->envc; i++) {
    if (putenv(w->env[i]) != 0) goto fail;
  }
  signal(SIGPIPE, SIG_DFL);
  execvp(w->executable, w->argv);
fail:
  e = errno;
  if (write(err_w, &e, sizeof e) < 0) { /* nothing more to do */
  }
  _exit(127);
}

/* Sends WORKER_ENDED. */
static int send_ended(gfs *s, int how, int code) {
  gfl_out o;
  gfl_out_init(&o);
  gfl_out_begin(&o, GFL_WORKER_ENDED);
  gfl_out_u8(&o, (uint8_t)how);
  gfl_out_u32(&o, (uint32_t)code);
  int rc = gfl_out_end(&o) || gfl_send(s->fd, o.data, o.len) ? -1 : 0;
  gfl_out_free(&o);
  return rc;
}

/* Starts the worker; 0, or the errno that kept it from starting (then reported as ended). */
static int start_worker(gfs *s, const gfl_worker *w) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC)) return errno;
  if (pipe2(out, O_CLOEXEC)) {
    int e = errno;
    close(in[0]);
    close(in[1]);
    return e;
  }
  if (pipe2(err, O_CLOEXEC)) {
    int e = errno;
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    return e;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) child(w, in[0], out[1], err[1]);
  int fork_errno = errno;
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (pid < 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    return fork_errno;
  }
  int exec_errno = 0;
  ssize_t got;
  do {
    got = read(err[0], &exec_errno, sizeof exec_errno); /* 0 bytes: exec succeeded (CLOEXEC) */
  } while (got < 0 && errno == EINTR);
  close(err[0]);
  if (got == (ssize_t)sizeof exec_errno) {
    close(in[1]);
    close(out[0]);
    waitpid(pid, NULL, 0);
    return exec_errno ? exec_errno : EIO;
  }
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
  s->pid = pid;
  s->in_w = in[1];
  s->out_r = out[0];
  s->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  s->line_limit = w->line_limit;
  return 0;
}

static void answers_begin(gfs *s) {
  gfl_out_begin(&s->answers, GFL_ANSWERS);
  gfl_out_u32(&s->answers, 0); /* the count, filled in at flush */
  s->answer_count = 0;
}

static int answers_flush(gfs *s) {
  if (s->answer_count == 0) return 0;
  uint32_t n = s->answer_count;
  if (s->answers.failed) {
    s->oom = 1;
    return -1;
  }
  s->answers.data[5] = (unsigned char)(n >> 24);
  s->answers.data[6] = (unsigned char)(n >> 16);
  s->answers.data[7] = (unsigned char)(n >> 8);
  s->answers.data[8] = (unsigned char)n;
  if (gfl_out_end(&s->answers) || gfl_send(s->fd, s->answers.data, s->answers.len)) return -1;
  answers_begin(s);
  return 0;
}

static void kill_worker(gfs *s, int sig) {
  if (s->pid > 0) {
    kill(-s->pid, sig);
    kill(s->pid, sig);
  }
}

/* One complete answer line: it answers the oldest unanswered message. */
static int answer(gfs *s) {
  if (s->ids_len == 0) {
    /* a line no message asked for: the worker is out of step and every later answer would be
     * matched to the wrong message, so it is stopped (and restarted by the dispatcher) */
    fprintf(stderr, "gantry-launcher: the session's worker wrote a line no message asked for;"
                    " stopping it\n");
    kill_worker(s, SIGKILL);
    return 0;
  }
  uint64_t id = s->ids[s->ids_head];
  s->ids_head = (s->ids_head + 1) % s->ids_cap;
  s->ids_len--;
  gfl_out_u64(&s->answers, id);
  gfl_out_u8(&s->answers, (uint8_t)s->truncated);
  gfl_out_u32(&s->answers, (uint32_t)s->line_len);
  gfl_out_bytes(&s->answers, s->line, s->line_len);
  s->answer_count++;
  s->line_len = 0;
  s->truncated = 0;
  if (s->answers.len >= GFS_ANSWERS_FLUSH) return answers_flush(s);
  return 0;
}

static int take_output(gfs *s, const unsigned char *p, size_t n) {
  while (n > 0) {
    const unsigned char *nl = memchr(p, '\n', n);
    size_t chunk = nl ? (size_t)(nl - p) : n;
    size_t room = s->line_limit - s->line_len;
    size_t keep = chunk < room ? chunk : room;
    memcpy(s->line + s->line_len, p, keep);
    s->line_len += keep;
    if (keep < chunk) s->truncated = 1;
    if (!nl) return 0;
    if (s->line_len > 0 && s->line[s->line_len - 1] == '\r') s->line_len--; /* CRLF workers */
    if (answer(s)) return -1;
    p = nl + 1;
    n -= chunk + 1;
  }
  return 0;
}

/* Reads what the worker wrote; at end of file, the worker is stopped (it cannot answer). */
static int read_worker(gfs *s) {
  unsigned char buf[65536];
  for (;;) {
    ssize_t got = read(s->out_r, buf, sizeof buf);
    if (got > 0) {
      if (take_output(s, buf, (size_t)got)) return -1;
      if ((size_t)got < sizeof buf) return 0;
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    close(s->out_r);
    s->out_r = -1;
    kill_worker(s, SIGKILL);
    return 0;
  }
}

static void write_worker(gfs *s) {
  gfs_buf *b = &s->to_worker;
  while (s->in_w >= 0 && b->off < b->len) {
    ssize_t w = write(s->in_w, b->p + b->off, b->len - b->off);
    if (w > 0) {
      b->off += (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    /* EPIPE: the worker closed its input; it can answer no more, its exit is near */
    close(s->in_w);
    s->in_w = -1;
    kill_worker(s, SIGKILL);
  }
  if (b->off == b->len) b->off = b->len = 0;
}

static void clear_worker(gfs *s) {
  if (s->in_w >= 0) close(s->in_w);
  if (s->out_r >= 0) close(s->out_r);
  if (s->pidfd >= 0) close(s->pidfd);
  s->in_w = s->out_r = s->pidfd = -1;
  s->pid = 0;
  s->to_worker.off = s->to_worker.len = 0;
  s->ids_len = s->ids_head = 0;
  s->line_len = 0;
  s->truncated = 0;
}

/* The worker exited: forward its last answers, then WORKER_ENDED. */
static int worker_ended(gfs *s) {
  if (s->out_r >= 0 && read_worker(s)) return -1;
  if (answers_flush(s)) return -1;
  int status = 0;
  waitpid(s->pid, &status, 0);
  kill(-s->pid, SIGKILL); /* whatever it left behind in its group */
  clear_worker(s);
  if (WIFSIGNALED(status)) return send_ended(s, 1, WTERMSIG(status));
  return send_ended(s, 0, WEXITSTATUS(status));
}

/* DONE: end of input for the worker, then 2 s, SIGTERM, 2 s, SIGKILL. */
static void stop_worker(gfs *s) {
  if (s->pid <= 0) return;
  if (s->in_w >= 0) {
    close(s->in_w);
    s->in_w = -1;
  }
  int stage = 0;
  uint64_t deadline = now_ms() + GFS_GRACE_MS;
  unsigned char sink[65536];
  for (;;) {
    int status;
    if (waitpid(s->pid, &status, WNOHANG) == s->pid) break;
    uint64_t now = now_ms();
    if (now >= deadline) {
      if (stage == 2) break;
      kill_worker(s, stage == 0 ? SIGTERM : SIGKILL);
      stage++;
      deadline = now + GFS_GRACE_MS;
      continue;
    }
    struct pollfd p[2] = {{s->pidfd, POLLIN, 0}, {s->out_r, POLLIN, 0}};
    poll(p, 2, s->pidfd >= 0 ? (int)(deadline - now) : 20);
    if (s->out_r >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t got = read(s->out_r, sink, sizeof sink); /* drained, so it never blocks writing */
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
        close(s->out_r);
        s->out_r = -1;
      }
    }
  }
  kill(-s->pid, SIGKILL);
  waitpid(s->pid, NULL, WNOHANG);
  clear_worker(s);
}

static int push_id(gfs *s, uint64_t id) {
  if (s->ids_len == s->ids_cap) {
    if (s->ids_cap >= GFS_MAX_QUEUED) return -1;
    size_t cap = s->ids_cap ? s->ids_cap * 2 : 1024;
    uint64_t *n = malloc(cap * sizeof *n);
    if (!n) {
      s->oom = 1;
      return -1;
    }
    for (size_t i = 0; i < s->ids_len; i++) n[i] = s->ids[(s->ids_head + i) % s->ids_cap];
    free(s->ids);
    s->ids = n;
    s->ids_cap = cap;
    s->ids_head = 0;
  }
  s->ids[(s->ids_head + s->ids_len) % s->ids_cap] = id;
  s->ids_len++;
  return 0;
}

/* MESSAGES: each line goes to the worker's input; dropped when no worker runs (the dispatcher
 * queues them again when it reads WORKER_ENDED, which crossed them on the wire). */
static int messages(gfs *s, gfl_in *in) {
  uint32_t n;
  if (gfl_in_u32(in, &n)) return -1;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t id;
    uint32_t len;
    if (gfl_in_u64(in, &id) || gfl_in_u32(in, &len) || len > in->left) return -1;
    if (memchr(in->p, '\n', len)) return -1; /* a line must stay one line */
    if (s->pid > 0 && s->in_w >= 0) {
      if (buf_reserve(&s->to_worker, (size_t)len + 1)) {
        s->oom = 1;
        return -1;
      }
      memcpy(s->to_worker.p + s->to_worker.len, in->p, len);
      s->to_worker.len += len;
      s->to_worker.p[s->to_worker.len++] = '\n';
      if (push_id(s, id)) return -1;
    }
    in->p += len;
    in->left -= len;
  }
  return in->left == 0 ? 0 : -1;
}

enum { GFS_GO_ON = 0, GFS_DONE = 1, GFS_BROKEN = -1 };

/* Handles the complete frames read from the dispatcher. */
static int frames(gfs *s) {
  gfs_buf *b = &s->sock_in;
  while (b->len - b->off >= 4) {
    const unsigned char *h = b->p + b->off;
    uint32_t n = ((uint32_t)h[0] << 24) | ((uint32_t)h[1] << 16) | ((uint32_t)h[2] << 8) | h[3];
    if (n < 1 || n > GFL_MAX_FRAME) return GFS_BROKEN;
    if (b->len - b->off < 4 + (size_t)n) {
      if (buf_reserve(b, 4 + (size_t)n - (b->len - b->off))) {
        s->oom = 1;
        return GFS_BROKEN;
      }
      return GFS_GO_ON;
    }
    gfl_in in = {b->p + b->off + 5, n - 1};
    int type = b->p[b->off + 4];
    b->off += 4 + (size_t)n;
    if (type == GFL_MESSAGES) {
      if (messages(s, &in)) return GFS_BROKEN;
    } else if (type == GFL_WORKER && s->pid == 0) {
      gfl_worker w;
      int bad = gfl_worker_parse(&in, &w);
      int e = bad ? 0 : start_worker(s, &w);
      gfl_worker_free(&w);
      if (bad) return GFS_BROKEN;
      if (e && send_ended(s, 3, e)) return GFS_BROKEN;
    } else if (type == GFL_DONE) {
      return GFS_DONE;
    } else {
      return GFS_BROKEN;
    }
  }
  return GFS_GO_ON;
}

static int serve(gfs *s) {
  for (;;) {
    struct pollfd p[4] = {{s->fd, POLLIN, 0},
                          {s->out_r, POLLIN, 0},
                          {s->to_worker.off < s->to_worker.len ? s->in_w : -1, POLLOUT, 0},
                          {s->pidfd, POLLIN, 0}};
    int timeout = s->pid > 0 && s->pidfd < 0 ? 50 : -1; /* no pidfd: look at the worker */
    if (poll(p, 4, timeout) < 0 && errno != EINTR) return 3;
    if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      if (buf_reserve(&s->sock_in, 65536)) return 4;
      ssize_t got = read(s->fd, s->sock_in.p + s->sock_in.len, s->sock_in.cap - s->sock_in.len);
      if (got == 0 || (got < 0 && errno != EINTR)) {
        fprintf(stderr, "gantry-launcher: lost the connection to the session's dispatcher\n");
        return 3;
      }
      if (got > 0) {
        s->sock_in.len += (size_t)got;
        int r = frames(s);
        if (r == GFS_DONE) return 0;
        if (r == GFS_BROKEN) {
          if (s->oom) return 4;
          fprintf(stderr, "gantry-launcher: the dispatcher sent a message outside protocol %u\n",
                  GFL_PROTOCOL_VERSION);
          return 3;
        }
      }
      write_worker(s); /* at once: no need to wait a turn for POLLOUT */
    }
    if (p[2].revents & (POLLOUT | POLLERR | POLLHUP)) write_worker(s);
    if (s->out_r >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      if (read_worker(s)) return s->oom ? 4 : 3;
    }
    if (answers_flush(s)) return s->oom ? 4 : 3;
    int exited = s->pid > 0 && (p[3].revents & POLLIN);
    if (s->pid > 0 && s->pidfd < 0) { /* without pidfd: a non-reaping check */
      siginfo_t si = {0};
      exited = waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid;
    }
    if (exited && worker_ended(s)) return s->oom ? 4 : 3;
  }
}

int gfl_session_run(int fd, gfl_worker *w) {
  gfs s;
  memset(&s, 0, sizeof s);
  s.fd = fd;
  s.in_w = s.out_r = s.pidfd = -1;
  gfl_out_init(&s.answers);
  signal(SIGPIPE, SIG_IGN); /* a worker that closed its input is an EPIPE, not our death */
  int rc = 4;
  s.line = malloc(GFL_MAX_FRAME / 4);
  if (!s.line) goto out;
  answers_begin(&s);
  int e = start_worker(&s, w);
  gfl_worker_free(w);
  if (e && send_ended(&s, 3, e)) {
    rc = 3;
    goto out;
  }
  rc = serve(&s);
out:
  if (rc == 0) {
    stop_worker(&s);
  } else {
    kill_worker(&s, SIGKILL);
    if (s.pid > 0) waitpid(s.pid, NULL, 0);
    clear_worker(&s);
  }
  free(s.sock_in.p);
  free(s.to_worker.p);
  free(s.ids);
  free(s.line);
  gfl_out_free(&s.answers);
  return rc;
}
