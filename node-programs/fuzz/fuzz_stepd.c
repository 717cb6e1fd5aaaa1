/* libFuzzer target: what gantry-stepd parses. Byte 0 chooses:
 *   even  its command line (stepd/stepd_options.c), the rest cut at NUL bytes into arguments:
 *         an accepted line must name a job, an absolute status path, a grace period, limits in
 *         range and an absolute program;
 *   odd   a /proc/PID/stat text (stepdParseStat), as a process with any name can make it look:
 *         the name in parentheses is the process's to choose, spaces and ')' included. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepd.h"

#define FUZZ_CHECK(c)                                                                      \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            fprintf(stderr, "fuzz_stepd: property failed at line %d: %s\n", __LINE__, #c); \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

static void options(const uint8_t *d, size_t n) {
    char *text = malloc(n + 1);
    if (!text) return;
    memcpy(text, d, n);
    text[n] = '\0';
    int argc = 1;
    for (size_t i = 0; i < n; i++) argc += text[i] == '\0';
    char **argv = calloc((size_t)argc + 2, sizeof *argv);
    if (!argv) {
        free(text);
        return;
    }
    argv[0] = "gantry-stepd";
    char *p = text;
    for (int i = 1; i <= argc; i++) {
        argv[i] = p;
        p += strlen(p) + 1;
    }
    argc++; /* argv[argc] == NULL, as exec gives it */
    stepdOptions o;
    memset(&o, 0, sizeof o);
    char err[256] = "";
    if (stepdParseOptions(argc, argv, &o, err, sizeof err) == 0) {
        FUZZ_CHECK(o.jobId != NULL && o.statusPath != NULL && o.statusPath[0] == '/');
        FUZZ_CHECK(o.startedPath == NULL || o.startedPath[0] == '/');
        FUZZ_CHECK(o.graceMs >= 0 && o.wallTimeMs >= 0);
        FUZZ_CHECK(o.wrapperDepth >= 0 && o.wrapperDepth <= 16);
        FUZZ_CHECK(o.program != NULL && o.program[0] != NULL && o.program[0][0] == '/');
    } else {
        FUZZ_CHECK(err[0] != '\0');
    }
    free(argv);
    free(text);
}

static void stat_line(const uint8_t *d, size_t n) {
    char *text = malloc(n + 1);
    if (!text) return;
    memcpy(text, d, n);
    text[n] = '\0';
    pid_t ppid = -7;
    unsigned long long start = 0;
    if (stepdParseStat(text, &ppid, &start) == 0) FUZZ_CHECK(strchr(text, ')') != NULL);
    else FUZZ_CHECK(ppid == -7);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    if (data[0] % 2 == 0) options(data + 1, size - 1);
    else stat_line(data + 1, size - 1);
    return 0;
}
