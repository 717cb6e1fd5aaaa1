/* libFuzzer target: the task-farm launcher's wire format (launcher/gfl_wire.c) and the two frames
 * it decodes from the dispatcher into an argv and an environment: TASK (gfl_task_parse) and
 * WORKER (gfl_worker_parse).
 *
 * Byte 0 chooses: 0 a TASK payload, 1 a WORKER payload, 2 a round trip (the rest, cut at NUL
 * bytes into strings, is encoded with gfl_out and must decode to the same strings), 3 a WELCOME
 * payload (gfl_welcome_parse: accepted only whole, with our version and its limits in range). A payload
 * accepted must give NUL-terminated arrays whose counts match and whose environment entries all
 * have a name; a payload refused must leave nothing behind (LeakSanitizer checks the frees). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfl_session.h"
#include "gfl_task.h"
#include "gfl_wire.h"

#define FUZZ_CHECK(c)                                                                            \
    do {                                                                                         \
        if (!(c)) {                                                                              \
            fprintf(stderr, "fuzz_launcher_wire: property failed at line %d: %s\n", __LINE__, #c); \
            abort();                                                                             \
        }                                                                                        \
    } while (0)

static void check_array(char **v, size_t n) {
    FUZZ_CHECK(v != NULL && v[n] == NULL);
    for (size_t i = 0; i < n; i++) FUZZ_CHECK(v[i] != NULL);
}

static void check_env(char **env, size_t n) {
    check_array(env, n);
    for (size_t i = 0; i < n; i++) {
        char *eq = strchr(env[i], '=');
        FUZZ_CHECK(eq != NULL && eq != env[i]);
    }
}

static void task(const uint8_t *d, size_t n) {
    gfl_in in = {d, n};
    gfl_task t;
    if (gfl_task_parse(&in, &t) == 0) {
        FUZZ_CHECK(in.left == 0 && t.executable[0] != '\0');
        check_array(t.argv, t.argc);
        FUZZ_CHECK(t.argc >= 1 && strcmp(t.argv[0], t.executable) == 0);
        check_env(t.env, t.envc);
    }
    gfl_task_free(&t);
}

static void worker(const uint8_t *d, size_t n) {
    gfl_in in = {d, n};
    gfl_worker w;
    if (gfl_worker_parse(&in, &w) == 0) {
        FUZZ_CHECK(in.left == 0 && w.executable[0] != '\0');
        FUZZ_CHECK(w.line_limit >= 1 && w.line_limit <= GFL_MAX_FRAME / 4);
        check_array(w.argv, w.argc);
        check_env(w.env, w.envc);
    }
    gfl_worker_free(&w);
}

static void round_trip(const uint8_t *d, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) count += d[i] == 0;
    count++; /* the strings between NULs */
    gfl_out o;
    gfl_out_init(&o);
    gfl_out_begin(&o, GFL_MESSAGES);
    gfl_out_u64(&o, (uint64_t)n * 0x9e3779b97f4a7c15ull);
    gfl_out_u32(&o, (uint32_t)count);
    for (size_t at = 0;;) {
        const uint8_t *nul = memchr(d + at, 0, n - at);
        size_t len = nul ? (size_t)(nul - (d + at)) : n - at;
        gfl_out_u32(&o, (uint32_t)len);
        gfl_out_bytes(&o, d + at, len);
        if (!nul) break;
        at += len + 1;
    }
    if (gfl_out_end(&o) != 0) { /* only a frame over the limit may be refused */
        FUZZ_CHECK(o.failed || o.len - 4 > GFL_MAX_FRAME);
        gfl_out_free(&o);
        return;
    }
    uint32_t frame = ((uint32_t)o.data[0] << 24) | ((uint32_t)o.data[1] << 16) |
                     ((uint32_t)o.data[2] << 8) | o.data[3];
    FUZZ_CHECK(frame == o.len - 4 && o.data[4] == GFL_MESSAGES);
    gfl_in in = {o.data + 5, o.len - 5};
    uint64_t tag;
    char **v = NULL;
    size_t got = 0;
    FUZZ_CHECK(gfl_in_u64(&in, &tag) == 0 && tag == (uint64_t)n * 0x9e3779b97f4a7c15ull);
    FUZZ_CHECK(gfl_in_strings(&in, &v, &got, 0, NULL) == 0 && got == count && in.left == 0);
    check_array(v, got);
    size_t at = 0;
    for (size_t i = 0; i < got; i++) {
        size_t len = strlen(v[i]);
        FUZZ_CHECK(at + len <= n && memcmp(v[i], d + at, len) == 0);
        FUZZ_CHECK(at + len == n || d[at + len] == 0);
        at += len + 1;
        free(v[i]);
    }
    free(v);
    gfl_out_free(&o);
}

static void welcome(const uint8_t *d, size_t n) {
    gfl_in in = {d, n};
    uint32_t limit = 0, beat_ms = 0;
    if (gfl_welcome_parse(&in, 65536, &limit, &beat_ms) == 0) {
        FUZZ_CHECK(n == 12 && in.left == 0);
        FUZZ_CHECK(d[0] == 0 && d[1] == 0 && d[2] == 0 && d[3] == GFL_PROTOCOL_VERSION);
        FUZZ_CHECK(limit <= 65536);
        FUZZ_CHECK(beat_ms >= GFL_BEAT_MIN_MS && beat_ms <= GFL_BEAT_MAX_MS);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    switch (data[0] % 4) {
    case 0: task(data + 1, size - 1); break;
    case 1: worker(data + 1, size - 1); break;
    case 2: round_trip(data + 1, size - 1); break;
    default: welcome(data + 1, size - 1); break;
    }
    return 0;
}
