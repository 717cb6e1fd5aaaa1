/* gantry-stepd: runs one local job's program for gantry-server and outlives the server, as
 * Slurm's slurmstepd outlives slurmd. Life cycle:
 *
 *   1. setsid(): a session and process group of its own, so a signal to the server's group (a
 *      terminal's Ctrl-C, a service manager stopping the server) does not reach the job.
 *   2. PR_SET_CHILD_SUBREAPER: processes the job leaves behind are re-parented here, not to init,
 *      so the whole tree stays known.
 *   3. With --started, its own record (job, pid, start time) is written before the program can
 *      start (atomically, not synced: it serves a server that stopped, not a host that did): a server that stopped before it stored the job's reference finds the
 *      supervisor by the job's id and follows the job again (a job whose program ran is never
 *      "lost" by that window).
 *   4. fork + execv of the program (the sandbox's bwrap/setpriv argument array the server built,
 *      or mpirun of an mpirun-hosts job), with the supervisor's own standard streams, working
 *      directory and environment, which the server set up for the job; the program gets SIGTERM
 *      if the supervisor dies (PR_SET_PDEATHSIG).
 *   5. One loop: signals are blocked and taken with sigtimedwait, so there are no handlers and no
 *      races; every 100 ms the wall time is checked. SIGTERM to the supervisor is a kill request
 *      (SIGTERM to the job's processes, SIGKILL to the whole tree after the grace period); the wall
 *      time running out does the same.
 *   6. When the program and every process of its tree are gone, the outcome is written durably to
 *      the status file (stepd_status.c), and the supervisor exits 0.
 *
 * Usage: gantry-stepd --job ID --status FILE [--started FILE] --grace-ms N [--wall-time-ms N] [--wrapper-depth N]
 *                     -- PROGRAM [ARG]...
 * PROGRAM is an absolute path: there is no PATH lookup, the server resolved it. */
#define _GNU_SOURCE
#include "stepd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STEPD_TICK_MS 100

#ifdef STEPD_FAULT_INJECTION
/* Test build only (gantry-stepd-faults, tests/CMakeLists.txt; docs/reliability.md, "A fault at
 * every step"): the supervisor kills itself with SIGKILL at the point its environment variable
 * STEPD_FAULT_HALT_AT names, as a crash or kill -9 would, after saying so on its standard error
 * (the job's). gantry-stepd itself is compiled without it: no variable steers it. */
static void stepdFaultPoint(const char *point) {
  const char *armed = getenv("STEPD_FAULT_HALT_AT");
  if (armed == NULL || strcmp(armed, point) != 0) return;
  fprintf(stderr, "gantry-stepd: halting at fault point %s\n", point);
  fflush(stderr);
  kill(getpid(), SIGKILL);
}
#else
#define stepdFaultPoint(point) ((void)0)
#endif

typedef enum { STEPD_RUN, STEPD_TERM, STEPD_KILL } stepdPhase;

static long long stepdNowMs(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The child: default signal handling and mask back, then the program. The program gets SIGTERM
 * should the supervisor itself die (killed by hand, SIGKILL): a program outside any sandbox, such
 * as mpirun of an mpirun-hosts job, would run on unsupervised otherwise, and its ranks on the
 * other hosts with it, while the server records the job as failed. SIGTERM, not SIGKILL, so that
 * mpirun still stops its daemons and ranks on the other hosts. A sandboxed program's bwrap adds
 * its own --die-with-parent (the setting survives execv, not a change of user). */
static void stepdExecProgram(char **program, const sigset_t *original, pid_t supervisor) {
  signal(SIGPIPE, SIG_DFL);
  if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) != 0) {
    fprintf(stderr, "gantry-stepd: cannot tie %s to its supervisor: %s\n", program[0],
            strerror(errno));
    _exit(127);
  }
  if (getppid() != supervisor) _exit(127); /* the supervisor died before the line above */
  sigprocmask(SIG_SETMASK, original, NULL);
  execv(program[0], program);
  fprintf(stderr, "gantry-stepd: cannot run %s: %s\n", program[0], strerror(errno));
  _exit(127);
}

/* Reaps every child that ended; notes the program's own status. Returns -1 once no child at all
 * is left (the whole tree is gone), else 0. */
static int stepdReap(pid_t root, int *rootDone, int *rootStatus) {
  for (;;) {
    int st;
    pid_t w = waitpid(-1, &st, WNOHANG);
    if (w > 0) {
      if (w == root) {
        *rootDone = 1;
        *rootStatus = st;
      }
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    return w < 0 && errno == ECHILD ? -1 : 0;
  }
}

static int stepdSupervise(const stepdOptions *o, const sigset_t *original, stepdStatus *s) {
  char err[256];
  pid_t self = getpid();
  pid_t root = fork();
  if (root < 0) {
    fprintf(stderr, "gantry-stepd: job %s: fork failed: %s\n", o->jobId, strerror(errno));
    return -1;
  }
  if (root == 0) stepdExecProgram(o->program, original, self);
  stepdFaultPoint("stepd.program-started");

  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGCHLD);
  sigaddset(&wanted, SIGTERM);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGHUP);
  long long start = stepdNowMs(CLOCK_MONOTONIC);
  long long killAt = 0;
  stepdPhase phase = STEPD_RUN;
  int rootDone = 0, rootStatus = 0, escalated = 0;
  stepdTree tree = {0};
  stepdTermed termed = {0};
  for (;;) {
    struct timespec tick = {0, STEPD_TICK_MS * 1000000L};
    int sig = sigtimedwait(&wanted, NULL, &tick);
    long long now = stepdNowMs(CLOCK_MONOTONIC);
    int stopNow = 0;
    if ((sig == SIGTERM || sig == SIGINT) && phase == STEPD_RUN && !rootDone) {
      s->killed = 1;
      stopNow = 1;
      fprintf(stderr, "gantry-stepd: job %s: stopping the job on request\n", o->jobId);
    }
    if (stepdReap(root, &rootDone, &rootStatus) < 0 && rootDone) break;
    if (phase == STEPD_RUN && !rootDone && o->wallTimeMs > 0 && now - start >= o->wallTimeMs) {
      s->wallTimeExceeded = 1;
      stopNow = 1;
      fprintf(stderr, "gantry-stepd: job %s: wall-time limit of %lld s exceeded; stopping the job\n",
              o->jobId, o->wallTimeMs / 1000);
    }
    if (phase == STEPD_RUN && rootDone) stopNow = 1; /* leftovers of a program that ended */
    if (stopNow && phase == STEPD_RUN) {
      phase = STEPD_TERM;
      killAt = now + o->graceMs;
    }
    if (phase == STEPD_RUN) continue;
    if (stepdTreeScan(&tree, self, rootDone ? -1 : root, err, sizeof err) != 0) {
      fprintf(stderr, "gantry-stepd: job %s: %s\n", o->jobId, err);
      continue;
    }
    if (phase == STEPD_TERM && now >= killAt) {
      escalated = !rootDone;
      phase = STEPD_KILL;
    }
    if (phase == STEPD_TERM) {
      stepdTermJobProcesses(&tree, rootDone ? 0 : o->wrapperDepth, &termed);
    } else {
      stepdKillAll(&tree);
    }
  }
  stepdTreeFree(&tree);
  stepdTermedFree(&termed);
  if (WIFSIGNALED(rootStatus)) {
    s->termSignal = WTERMSIG(rootStatus);
    s->exitStatus = 128 + s->termSignal;
  } else {
    s->exitStatus = WEXITSTATUS(rootStatus);
  }
  if (s->killed || s->wallTimeExceeded) s->stopSignal = escalated ? SIGKILL : SIGTERM;
  /* Every process of the job was reaped by us or by a parent that was (we are the subreaper), so
   * RUSAGE_CHILDREN holds the CPU time of the whole tree (getrusage(2)): the job's accounting. */
  struct rusage used;
  if (getrusage(RUSAGE_CHILDREN, &used) == 0) {
    s->cpuMs = (long long)(used.ru_utime.tv_sec + used.ru_stime.tv_sec) * 1000 +
               (used.ru_utime.tv_usec + used.ru_stime.tv_usec) / 1000;
  }
  return 0;
}

int main(int argc, char **argv) {
  char err[512];
  stepdOptions o = {0};
  if (stepdParseOptions(argc, argv, &o, err, sizeof err) != 0) {
    fprintf(stderr, "gantry-stepd: %s\n", err);
    fprintf(stderr,
            "usage: gantry-stepd --job ID --status FILE [--started FILE] --grace-ms N"
            " [--wall-time-ms N]"
            " [--wrapper-depth N] -- /PROGRAM [ARG]...\n");
    return 2;
  }
  /* Signals the loop takes are blocked before fork, so none is lost in between. */
  sigset_t blocked, original;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGCHLD);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGINT);
  sigaddset(&blocked, SIGHUP);
  sigprocmask(SIG_BLOCK, &blocked, &original);
  signal(SIGPIPE, SIG_IGN);
  if (setsid() < 0 && errno != EPERM) { /* EPERM: already a group leader, e.g. run by hand */
    fprintf(stderr, "gantry-stepd: job %s: setsid: %s\n", o.jobId, strerror(errno));
    return 1;
  }
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    fprintf(stderr, "gantry-stepd: job %s: cannot become a subreaper: %s\n", o.jobId,
            strerror(errno));
    return 1;
  }
  if (o.startedPath != NULL) {
    unsigned long long ticks = 0;
    if (stepdSelfStartTicks(&ticks) != 0) {
      fprintf(stderr, "gantry-stepd: job %s: cannot read its own start time\n", o.jobId);
      return 1;
    }
    if (stepdStartedWrite(o.startedPath, o.jobId, getpid(), ticks, err, sizeof err) != 0) {
      fprintf(stderr, "gantry-stepd: job %s: %s\n", o.jobId, err);
      return 1; /* the program never runs unrecorded */
    }
  }
  stepdFaultPoint("stepd.recorded");
  stepdStatus s = {.jobId = o.jobId, .startedMs = stepdNowMs(CLOCK_REALTIME), .cpuMs = -1};
  if (stepdSupervise(&o, &original, &s) != 0) return 1;
  stepdFaultPoint("stepd.program-ended");
  s.endedMs = stepdNowMs(CLOCK_REALTIME);
  if (stepdStatusWrite(o.statusPath, &s, err, sizeof err) != 0) {
    fprintf(stderr, "gantry-stepd: job %s: %s\n", o.jobId, err);
    return 1;
  }
  stepdFaultPoint("stepd.status-written");
  return 0;
}
