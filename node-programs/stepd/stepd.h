/* gantry-stepd: the supervisor that holds one local job's process tree and outlives the server
 * that started it, in the spirit of Slurm's slurmstepd. See stepd_main.c for the life cycle. */
#ifndef STEPD_H
#define STEPD_H

#include <stddef.h>
#include <sys/types.h>

/* One process seen in /proc: enough to walk a tree and to know a pid was not reused. */
typedef struct stepdProc {
  pid_t pid;
  pid_t ppid;
  unsigned long long start; /* clock ticks after boot, /proc/PID/stat field 22 */
  int depth;                /* 1 for our own children, 2 for theirs, ... */
  int underRoot;            /* descends from the launched program (not an orphan re-parented to us) */
} stepdProc;

/* The processes below the supervisor, each with its depth. */
typedef struct stepdTree {
  stepdProc *procs;
  size_t count;
  size_t cap;
} stepdTree;

/* Fills tree with every descendant of self; root is the launched program's pid (its tree is
 * told apart from orphans). Returns 0, or -1 with errbuf set. */
int stepdTreeScan(stepdTree *tree, pid_t self, pid_t root, char *errbuf, size_t errlen);
void stepdTreeFree(stepdTree *tree);

/* Pids already sent SIGTERM (with their start time, so a reused pid gets its own). */
typedef struct stepdTermed {
  stepdProc *procs;
  size_t count;
  size_t cap;
} stepdTermed;

/* SIGTERM to every job process of tree not termed yet: all but the launched program's first
 * wrapperDepth levels. Returns how many were signalled, -1 when out of memory. */
int stepdTermJobProcesses(const stepdTree *tree, int wrapperDepth, stepdTermed *termed);
/* SIGKILL to every process of tree. Returns how many were signalled. */
int stepdKillAll(const stepdTree *tree);
void stepdTermedFree(stepdTermed *termed);

/* How the job ended, as the server reads it back. */
typedef struct stepdStatus {
  const char *jobId;
  int exitStatus;       /* exit code, or 128 + signal, the shell's (and the JDK's) convention */
  int termSignal;       /* the signal that ended the launched program, 0 if it exited */
  int wallTimeExceeded; /* the supervisor stopped the job when its wall time ran out */
  int killed;           /* the supervisor stopped the job on request (SIGTERM to it) */
  int stopSignal;       /* last signal sent to stop it: 15, 9 after the grace ran out, 0 */
  long long startedMs;  /* wall-clock milliseconds since the epoch */
  long long endedMs;
  long long cpuMs; /* user + system CPU time of the job's whole process tree, -1 if unknown */
} stepdStatus;

/* Writes status to path durably: path.tmp, fsync, rename, fsync of the directory. Returns 0,
 * or -1 with errbuf set. */
int stepdStatusWrite(const char *path, const stepdStatus *status, char *errbuf, size_t errlen);

/* Writes, atomically but not synced, the supervisor's own record at its start (job, pid and
 * kernel start time), before the program can start: a server that stopped before it stored the
 * job's reference finds the supervisor again by it. Returns 0, or -1 with errbuf set. */
int stepdStartedWrite(const char *path, const char *jobId, pid_t pid, unsigned long long startTicks,
                      char *errbuf, size_t errlen);

/* The start time of this process (/proc/self/stat field 22). Returns 0, or -1. */
int stepdSelfStartTicks(unsigned long long *start);

/* The command line (usage in stepd_main.c). */
typedef struct stepdOptions {
  const char *jobId;
  const char *statusPath;
  const char *startedPath; /* NULL: no record at the start */
  long long graceMs;
  long long wallTimeMs; /* 0: no limit */
  int wrapperDepth;
  char **program;
} stepdOptions;

/* Parses argv into o (pointers into argv); returns 0, or -1 with err set. */
int stepdParseOptions(int argc, char **argv, stepdOptions *o, char *err, size_t errlen);

/* Parses the text of /proc/PID/stat: the parent pid and start time of a live process. Returns 0,
 * or -1 for a dead (zombie) process or text not in that form. */
int stepdParseStat(const char *text, pid_t *ppid, unsigned long long *start);

#endif
