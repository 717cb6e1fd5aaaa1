/* gantry-launcher: the task-farm launcher that runs on every allocated core.
 *
 * It connects to its job's dispatcher (GANTRY_FARM_DISPATCHER=host:port), proves it belongs to
 * the job with the job's secret (GANTRY_FARM_SECRET, or GANTRY_FARM_SECRET_FILE naming a file
 * only its account can read; never an argument, since command lines are public in /proc), then
 * loops: ask for a task, run it, and hand its result over with the next request, as the
 * launcher of "Asynchronous Task Dispatch for High Throughput Computing" does. One TCP
 * connection serves the whole loop, so a launcher that dies is noticed at once by the
 * dispatcher, which gives its task to another launcher; from WELCOME on a thread sends a
 * heartbeat at the interval the dispatcher chose (gfl_beat.h), so a launcher whose host is lost
 * (no FIN, no reset) is noticed by its silence.
 *
 * A session's dispatcher answers the first request with WORKER instead: the launcher then starts
 * that long-lived program and relays task messages to it (gfl_session.c).
 *
 * Exit status: 0 when the dispatcher said there is no more work; 2 configuration or a refused
 * secret; 3 the connection broke or the dispatcher spoke out of protocol; 4 out of memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gfl_beat.h"
#include "gfl_session.h"
#include "gfl_task.h"
#include "gfl_wire.h"

#define GFL_SECRET_MAX 1024
#define GFL_OUTPUT_MAX (64u * 1024u)

static void usage(FILE *f) {
  fprintf(f,
          "usage: gantry-launcher\n"
          "Runs tasks handed out by a Gantry task-farm dispatcher until it says there is no more\n"
          "work. Configured through the environment only:\n"
          "  GANTRY_FARM_DISPATCHER   host:port of the job's dispatcher ([v6-address]:port too)\n"
          "  GANTRY_FARM_SECRET       the job's secret, or\n"
          "  GANTRY_FARM_SECRET_FILE  a file holding it, readable by its owner only (mode 0600)\n"
          "Exit status: 0 no more work, 2 configuration or refused, 3 connection lost, 4 memory.\n");
}

/* Copies the secret out of the environment and wipes it there: /proc/PID/environ shows the
 * environment's original bytes, whatever unsetenv does, and tasks must not inherit it. */
static int take_secret(char *secret, char *err) {
  char *value = getenv("GANTRY_FARM_SECRET");
  const char *file = getenv("GANTRY_FARM_SECRET_FILE");
  if (value) {
    size_t n = strlen(value);
    if (n == 0 || n >= GFL_SECRET_MAX) {
      snprintf(err, 256, "GANTRY_FARM_SECRET must hold 1 to %d bytes", GFL_SECRET_MAX - 1);
      return -1;
    }
    memcpy(secret, value, n + 1);
    memset(value, 0, n);
    unsetenv("GANTRY_FARM_SECRET");
    return 0;
  }
  if (!file) {
    snprintf(err, 256, "neither GANTRY_FARM_SECRET nor GANTRY_FARM_SECRET_FILE is set");
    return -1;
  }
  int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(err, 256, "cannot open GANTRY_FARM_SECRET_FILE %s: %s", file, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode) || (st.st_mode & 077) || st.st_uid != geteuid()) {
    snprintf(err, 256, "GANTRY_FARM_SECRET_FILE %s must be a regular file of this account "
             "with mode 0600 or stricter", file);
    close(fd);
    return -1;
  }
  ssize_t n = read(fd, secret, GFL_SECRET_MAX - 1);
  close(fd);
  if (n <= 0) {
    snprintf(err, 256, "GANTRY_FARM_SECRET_FILE %s is empty or unreadable", file);
    return -1;
  }
  while (n > 0 && (secret[n - 1] == '\n' || secret[n - 1] == '\r')) n--;
  secret[n] = '\0';
  unsetenv("GANTRY_FARM_SECRET_FILE");
  return n > 0 ? 0 : -1;
}

static int dial(const char *address, char *err) {
  char host[256];
  const char *colon = strrchr(address, ':');
  if (!colon || colon == address || (size_t)(colon - address) >= sizeof host) {
    snprintf(err, 256, "GANTRY_FARM_DISPATCHER must be host:port, was '%s'", address);
    return -1;
  }
  const char *h = address;
  size_t hl = (size_t)(colon - address);
  if (h[0] == '[' && hl >= 2 && h[hl - 1] == ']') {
    h++;
    hl -= 2;
  }
  memcpy(host, h, hl);
  host[hl] = '\0';
  struct addrinfo hints = {0}, *res = NULL;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, colon + 1, &hints, &res);
  if (rc != 0) {
    snprintf(err, 256, "cannot resolve dispatcher %s: %s", address, gai_strerror(rc));
    return -1;
  }
  int fd = -1;
  for (struct addrinfo *a = res; a; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    snprintf(err, 256, "cannot connect to dispatcher %s: %s", address, strerror(errno));
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd >= 0) {
    int one = 1; /* a request is one small frame: send it now, not after Nagle's delay */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

static int read_all(int fd, unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* Reads one frame into *buf (reallocated as needed); returns its type, or -1. */
static int read_frame(int fd, unsigned char **buf, size_t *cap, gfl_in *in) {
  unsigned char len[4];
  if (read_all(fd, len, 4)) return -1;
  uint32_t n = ((uint32_t)len[0] << 24) | ((uint32_t)len[1] << 16) | ((uint32_t)len[2] << 8) |
               (uint32_t)len[3];
  if (n < 1 || n > GFL_MAX_FRAME) return -1;
  if (n > *cap) {
    unsigned char *b = realloc(*buf, n);
    if (!b) return -1;
    *buf = b;
    *cap = n;
  }
  if (read_all(fd, *buf, n)) return -1;
  in->p = *buf + 1;
  in->left = n - 1;
  return (*buf)[0];
}

static void put_result(gfl_out *o, const gfl_task *t, const gfl_result *r) {
  gfl_out_u8(o, 1);
  gfl_out_u64(o, t->id);
  gfl_out_u32(o, t->attempt);
  gfl_out_u8(o, (uint8_t)r->how);
  gfl_out_u32(o, (uint32_t)r->code);
  gfl_out_u64(o, r->start_ms);
  gfl_out_u64(o, r->duration_us);
  gfl_out_u32(o, (uint32_t)r->output_len);
  gfl_out_bytes(o, r->output, r->output_len);
}

/* The request loop; returns the process exit status. */
static int serve(int fd, const char *secret) {
  int rc = 3;
  char err[256];
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  gfl_out o;
  gfl_out_init(&o);
  unsigned char *buf = NULL;
  size_t cap = 0;
  gfl_in in;
  gfl_task task = {0};
  gfl_result result = {0};
  int have_result = 0;
  uint32_t limit, beat_ms;

  gfl_out_begin(&o, GFL_HELLO);
  gfl_out_u32(&o, GFL_PROTOCOL_VERSION);
  gfl_out_u32(&o, (uint32_t)strlen(secret));
  gfl_out_bytes(&o, secret, strlen(secret));
  gfl_out_u32(&o, (uint32_t)strlen(host));
  gfl_out_bytes(&o, host, strlen(host));
  gfl_out_u32(&o, (uint32_t)getpid());
  if (gfl_out_end(&o) || gfl_send(fd, o.data, o.len)) goto lost;
  int type = read_frame(fd, &buf, &cap, &in);
  if (type == GFL_REFUSE) {
    char *reason = NULL;
    if (gfl_in_str(&in, &reason) == 0) {
      fprintf(stderr, "gantry-launcher: the dispatcher refused this launcher: %s\n", reason);
    }
    free(reason);
    rc = 2;
    goto out;
  }
  if (type != GFL_WELCOME || gfl_welcome_parse(&in, GFL_OUTPUT_MAX, &limit, &beat_ms))
    goto protocol;
  if (gfl_beat_start(fd, beat_ms)) { /* without it the dispatcher would take us for lost */
    fprintf(stderr, "gantry-launcher: cannot start the heartbeat thread: %s\n", strerror(errno));
    rc = 4;
    goto out;
  }
  for (;;) {
    gfl_out_begin(&o, GFL_REQUEST);
    if (have_result) {
      put_result(&o, &task, &result);
      gfl_task_free(&task);
      gfl_result_free(&result);
      have_result = 0;
    } else {
      gfl_out_u8(&o, 0);
    }
    if (gfl_out_end(&o) || gfl_send(fd, o.data, o.len)) goto lost;
    type = read_frame(fd, &buf, &cap, &in);
    if (type == GFL_DONE) {
      rc = 0;
      goto out;
    }
    if (type == GFL_WORKER) { /* a session's launcher: it relays to one long-lived worker */
      gfl_worker w;
      if (gfl_worker_parse(&in, &w)) {
        gfl_worker_free(&w);
        goto protocol;
      }
      rc = gfl_session_run(fd, &w);
      goto out;
    }
    if (type != GFL_TASK || gfl_task_parse(&in, &task)) goto protocol;
    if (gfl_task_run(&task, limit, &result, err)) {
      fprintf(stderr, "gantry-launcher: %s\n", err);
      rc = 4;
      goto out;
    }
    have_result = 1;
  }
protocol:
  fprintf(stderr, "gantry-launcher: the dispatcher sent a message outside protocol %u\n",
          GFL_PROTOCOL_VERSION);
  rc = 3;
  goto out;
lost:
  fprintf(stderr, "gantry-launcher: lost the connection to the dispatcher: %s\n",
          strerror(errno));
  rc = 3;
out:
  gfl_beat_stop(fd);
  gfl_task_free(&task);
  gfl_result_free(&result);
  gfl_out_free(&o);
  free(buf);
  return rc;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    int help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
    usage(help ? stdout : stderr);
    return help ? 0 : 2;
  }
  char secret[GFL_SECRET_MAX];
  char err[256];
  if (take_secret(secret, err)) {
    fprintf(stderr, "gantry-launcher: %s\n", err);
    return 2;
  }
  const char *address = getenv("GANTRY_FARM_DISPATCHER");
  if (!address) {
    fprintf(stderr, "gantry-launcher: GANTRY_FARM_DISPATCHER is not set\n");
    return 2;
  }
  int fd = dial(address, err);
  if (fd < 0) {
    fprintf(stderr, "gantry-launcher: %s\n", err);
    return 3;
  }
  int rc = serve(fd, secret);
  memset(secret, 0, sizeof secret);
  close(fd);
  return rc;
}
