/* The job's end, written where the server finds it: a small "key=value" file in a directory only
 * the server's account can write (never the job's directory, where the job could forge it).
 * Written to a temporary name, synced and renamed, so a reader sees the whole record or none,
 * also after a power cut. */
#define _GNU_SOURCE
#include "stepd.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int stepdSyncDirectory(const char *path) {
  char *copy = strdup(path);
  if (copy == NULL) return -1;
  int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(copy);
  if (fd < 0) return -1;
  int rc = fsync(fd);
  close(fd);
  return rc;
}

/* Writes text to path: path.tmp, rename, so a reader sees the whole record or none; with durable,
 * path.tmp is synced before the rename and the directory after it, so the record also survives a
 * power cut. */
static int stepdWriteAtomically(const char *path, const char *text, int len, int durable,
                                char *errbuf, size_t errlen) {
  char tmp[4096];
  int fd = -1;
  if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
    snprintf(errbuf, errlen, "status path too long: %s", path);
    return -1;
  }
  /* O_EXCL after unlink: never write through a link someone left at the temporary name. */
  unlink(tmp);
  fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) goto err;
  for (int off = 0; off < len;) {
    ssize_t n = write(fd, text + off, (size_t)(len - off));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) goto err;
    off += (int)n;
  }
  if (durable && fsync(fd) != 0) goto err;
  if (close(fd) != 0) {
    fd = -1;
    goto err;
  }
  fd = -1;
  if (rename(tmp, path) != 0) goto err;
  if (durable && stepdSyncDirectory(path) != 0) goto err;
  return 0;
err:
  snprintf(errbuf, errlen, "cannot write the status file %s: %s", path, strerror(errno));
  if (fd >= 0) close(fd);
  unlink(tmp);
  return -1;
}

int stepdStartedWrite(const char *path, const char *jobId, pid_t pid, unsigned long long startTicks,
                      char *errbuf, size_t errlen) {
  char text[512];
  int len = snprintf(text, sizeof text, "format=gantry-stepd-started-1\njob=%s\npid=%d\nstart_ticks=%llu\n",
                     jobId, (int)pid, startTicks);
  if (len < 0 || len >= (int)sizeof text) {
    snprintf(errbuf, errlen, "start record too long");
    return -1;
  }
  /* Not synced: the record is for a server that stopped while this host ran on (the page cache
   * keeps it); a host that stopped ended this supervisor too, and the pid and start time it names
   * would name no process. Two syncs fewer before the program starts. */
  return stepdWriteAtomically(path, text, len, 0, errbuf, errlen);
}

int stepdStatusWrite(const char *path, const stepdStatus *s, char *errbuf, size_t errlen) {
  char text[1024];
  int len = snprintf(text, sizeof text,
                     "format=gantry-stepd-status-1\njob=%s\nexit_status=%d\nterm_signal=%d\n"
                     "wall_time_exceeded=%d\nkilled=%d\nstop_signal=%d\nstarted_ms=%lld\n"
                     "ended_ms=%lld\ncpu_ms=%lld\n",
                     s->jobId, s->exitStatus, s->termSignal, s->wallTimeExceeded, s->killed,
                     s->stopSignal, s->startedMs, s->endedMs, s->cpuMs);
  if (len < 0 || len >= (int)sizeof text) {
    snprintf(errbuf, errlen, "status record too long");
    return -1;
  }
  return stepdWriteAtomically(path, text, len, 1, errbuf, errlen);
}
