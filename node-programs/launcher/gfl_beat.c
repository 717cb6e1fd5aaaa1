/* gfl_beat: the heartbeat thread and the send lock (see gfl_beat.h).
 *
 * The thread only waits on a condition variable and sends a 5-byte frame: it allocates nothing
 * and touches no state of the main thread, so the main thread's fork for a task or worker (whose
 * child then has only the forking thread) inherits no lock it could need. */
#define _GNU_SOURCE
#include "gfl_beat.h"

#include <errno.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

#include "gfl_wire.h"

static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static pthread_t beater;
static int beating, stopping, beat_fd;
static uint32_t beat_ms;

static int send_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int gfl_send(int fd, const void *p, size_t n) {
  pthread_mutex_lock(&send_lock);
  int rc = send_all(fd, p, n);
  int e = errno;
  pthread_mutex_unlock(&send_lock);
  errno = e;
  return rc;
}

/* The deadline interval_ms after now, on the monotonic clock the condition variable waits on. */
static struct timespec after(uint32_t ms) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  t.tv_sec += ms / 1000u;
  t.tv_nsec += (long)(ms % 1000u) * 1000000L;
  if (t.tv_nsec >= 1000000000L) {
    t.tv_sec++;
    t.tv_nsec -= 1000000000L;
  }
  return t;
}

static void *beat(void *unused) {
  (void)unused;
  static const unsigned char frame[5] = {0, 0, 0, 1, GFL_HEARTBEAT};
  pthread_mutex_lock(&state_lock);
  while (!stopping) {
    struct timespec next = after(beat_ms);
    while (!stopping && pthread_cond_timedwait(&wake, &state_lock, &next) != ETIMEDOUT) {
    }
    if (stopping) break;
    pthread_mutex_unlock(&state_lock);
    /* a broken connection is the main thread's to notice and report: beating simply ends */
    int failed = gfl_send(beat_fd, frame, sizeof frame) != 0;
    pthread_mutex_lock(&state_lock);
    if (failed) break;
  }
  pthread_mutex_unlock(&state_lock);
  return NULL;
}

int gfl_beat_start(int fd, uint32_t interval_ms) {
  pthread_condattr_t a;
  if (pthread_condattr_init(&a) || pthread_condattr_setclock(&a, CLOCK_MONOTONIC) ||
      pthread_cond_init(&wake, &a)) {
    errno = ENOMEM;
    return -1;
  }
  pthread_condattr_destroy(&a);
  beat_fd = fd;
  beat_ms = interval_ms;
  stopping = 0;
  int e = pthread_create(&beater, NULL, beat, NULL);
  if (e) {
    pthread_cond_destroy(&wake);
    errno = e;
    return -1;
  }
  beating = 1;
  return 0;
}

void gfl_beat_stop(int fd) {
  if (!beating) return;
  pthread_mutex_lock(&state_lock);
  stopping = 1;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&state_lock);
  /* the thread may be blocked in a send the dispatcher will never read: shutting the socket
   * down ends that send; the launcher is leaving, so nothing else needs the socket any more */
  shutdown(fd, SHUT_RDWR);
  pthread_join(beater, NULL);
  pthread_cond_destroy(&wake);
  beating = 0;
}
