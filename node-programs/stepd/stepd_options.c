/* gantry-stepd's command line, the whole of what the server tells it: the job, where its status
 * (and its record at the start) goes, the grace period and wall time, and the program's argument array after "--". */
#include "stepd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int stepdParseNumber(const char *text, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < 0) return -1;
  *out = v;
  return 0;
}

int stepdParseOptions(int argc, char **argv, stepdOptions *o, char *err, size_t errlen) {
  long long depth = 0;
  o->graceMs = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      o->program = &argv[i + 1];
      break;
    }
    if (i + 1 >= argc) {
      snprintf(err, errlen, "%s needs a value", a);
      return -1;
    }
    const char *v = argv[++i];
    if (strcmp(a, "--job") == 0) {
      o->jobId = v;
    } else if (strcmp(a, "--status") == 0) {
      o->statusPath = v;
    } else if (strcmp(a, "--started") == 0) {
      o->startedPath = v;
    } else if (strcmp(a, "--grace-ms") == 0) {
      if (stepdParseNumber(v, &o->graceMs) != 0) goto bad;
    } else if (strcmp(a, "--wall-time-ms") == 0) {
      if (stepdParseNumber(v, &o->wallTimeMs) != 0) goto bad;
    } else if (strcmp(a, "--wrapper-depth") == 0) {
      if (stepdParseNumber(v, &depth) != 0 || depth > 16) goto bad;
      o->wrapperDepth = (int)depth;
    } else {
      snprintf(err, errlen, "unknown option %s", a);
      return -1;
    }
    continue;
  bad:
    snprintf(err, errlen, "%s: '%s' is not a valid value", a, v);
    return -1;
  }
  if (o->jobId == NULL || o->statusPath == NULL || o->graceMs < 0) {
    snprintf(err, errlen, "--job, --status and --grace-ms are required");
    return -1;
  }
  if (o->program == NULL || o->program[0] == NULL || o->program[0][0] != '/') {
    snprintf(err, errlen, "give the program as an absolute path after --");
    return -1;
  }
  if (o->statusPath[0] != '/') {
    snprintf(err, errlen, "--status must be an absolute path");
    return -1;
  }
  if (o->startedPath != NULL && o->startedPath[0] != '/') {
    snprintf(err, errlen, "--started must be an absolute path");
    return -1;
  }
  return 0;
}
