/* The job's process tree as /proc shows it, and the signals that stop it.
 *
 * The supervisor is a child subreaper (PR_SET_CHILD_SUBREAPER): a process of the job whose parent
 * exits is re-parented to the supervisor, not to init, so "every descendant of the supervisor" is
 * exactly "every process of the job", orphans included. A sandboxed job's processes live in a PID
 * namespace whose init is the sandbox's; they are descendants all the same. */
#define _GNU_SOURCE
#include "stepd.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name in parentheses may hold spaces and ')', so fields are counted from the last ')'. */
int stepdParseStat(const char *text, pid_t *ppid, unsigned long long *start) {
  const char *p = strrchr(text, ')');
  if (p == NULL) return -1;
  /* after ')': state(3) ppid(4) ... starttime(22) */
  char state;
  int parent;
  unsigned long long st;
  if (sscanf(p + 1,
             " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
             &state, &parent, &st) != 3) {
    return -1;
  }
  if (state == 'Z' || state == 'X') return -1; /* dead: nothing left to signal */
  *ppid = (pid_t)parent;
  *start = st;
  return 0;
}

static int stepdReadStat(pid_t pid, pid_t *ppid, unsigned long long *start) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "re");
  if (f == NULL) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return stepdParseStat(buf, ppid, start);
}

int stepdSelfStartTicks(unsigned long long *start) {
  pid_t ppid;
  return stepdReadStat(getpid(), &ppid, start);
}

static int stepdTreeAdd(stepdTree *tree, stepdProc proc) {
  if (tree->count == tree->cap) {
    size_t cap = tree->cap ? tree->cap * 2 : 64;
    stepdProc *grown = realloc(tree->procs, cap * sizeof *grown);
    if (grown == NULL) return -1;
    tree->procs = grown;
    tree->cap = cap;
  }
  tree->procs[tree->count++] = proc;
  return 0;
}

int stepdTreeScan(stepdTree *tree, pid_t self, pid_t root, char *errbuf, size_t errlen) {
  stepdTree all = {0};
  tree->count = 0;
  DIR *dir = opendir("/proc");
  if (dir == NULL) {
    snprintf(errbuf, errlen, "cannot read /proc: %s", strerror(errno));
    return -1;
  }
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    stepdProc p = {.pid = (pid_t)pid, .depth = 0};
    if (stepdReadStat(p.pid, &p.ppid, &p.start) != 0) continue; /* gone meanwhile */
    if (stepdTreeAdd(&all, p) != 0) goto oom;
  }
  closedir(dir);
  dir = NULL;
  /* Breadth first from self: level d holds the processes whose parent is on level d - 1. */
  for (int depth = 1;; depth++) {
    int found = 0;
    for (size_t i = 0; i < all.count; i++) {
      stepdProc *p = &all.procs[i];
      if (p->depth != 0) continue;
      if (depth == 1 ? p->ppid == self : 0) {
        p->depth = 1;
        p->underRoot = p->pid == root;
        found = 1;
        continue;
      }
      for (size_t j = 0; depth > 1 && j < all.count; j++) {
        stepdProc *q = &all.procs[j];
        if (q->depth == depth - 1 && q->pid == p->ppid) {
          p->depth = depth;
          p->underRoot = q->underRoot;
          found = 1;
          break;
        }
      }
    }
    if (!found) break;
  }
  for (size_t i = 0; i < all.count; i++) {
    if (all.procs[i].depth > 0 && stepdTreeAdd(tree, all.procs[i]) != 0) goto oom;
  }
  stepdTreeFree(&all);
  return 0;
oom:
  if (dir != NULL) closedir(dir);
  stepdTreeFree(&all);
  snprintf(errbuf, errlen, "out of memory while reading /proc");
  return -1;
}

void stepdTreeFree(stepdTree *tree) {
  free(tree->procs);
  tree->procs = NULL;
  tree->count = tree->cap = 0;
}

static int stepdTermedHas(const stepdTermed *termed, const stepdProc *p) {
  for (size_t i = 0; i < termed->count; i++) {
    if (termed->procs[i].pid == p->pid && termed->procs[i].start == p->start) return 1;
  }
  return 0;
}

/* The sandbox's wrappers (bwrap, then the init it runs as PID 1 of the job's namespace) get no
 * SIGTERM: bwrap would die of it at once and its namespace with it, by SIGKILL, leaving the job's
 * programs no grace period. Orphans re-parented to us are the job's own processes. */
int stepdTermJobProcesses(const stepdTree *tree, int wrapperDepth, stepdTermed *termed) {
  int sent = 0;
  for (size_t i = 0; i < tree->count; i++) {
    const stepdProc *p = &tree->procs[i];
    if (p->underRoot && p->depth <= wrapperDepth) continue;
    if (stepdTermedHas(termed, p)) continue;
    if (termed->count == termed->cap) {
      size_t cap = termed->cap ? termed->cap * 2 : 64;
      stepdProc *grown = realloc(termed->procs, cap * sizeof *grown);
      if (grown == NULL) return -1;
      termed->procs = grown;
      termed->cap = cap;
    }
    termed->procs[termed->count++] = *p;
    if (kill(p->pid, SIGTERM) == 0) sent++;
  }
  return sent;
}

int stepdKillAll(const stepdTree *tree) {
  int sent = 0;
  for (size_t i = 0; i < tree->count; i++) {
    if (kill(tree->procs[i].pid, SIGKILL) == 0) sent++;
  }
  return sent;
}

void stepdTermedFree(stepdTermed *termed) {
  free(termed->procs);
  termed->procs = NULL;
  termed->count = termed->cap = 0;
}
