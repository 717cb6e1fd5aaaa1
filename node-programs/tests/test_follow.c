/* gio_follow_open against real writer processes (no MPI): a blocked-gzip file appended in
 * uneven chunks with pauses (created only after the reader started) reads to exactly the lines
 * of the complete file and ends at its end-of-file block while the writer still holds it open;
 * lines come as their blocks arrive (not once a buffer is full); FIFOs (blocked gzip and
 * plain) and a pipe read to the writer's close; garbled and truncated data, data
 * after the end-of-file block, a shrinking file and a plain file are clear errors naming the
 * file; the no-progress timeout fires for a missing file, a stalled file and a silent FIFO.
 *
 *   test_follow DIR                          run the checks in scratch directory DIR
 *   test_follow feed SRC DST CHUNK PAUSE_MS  append SRC to DST (a file, created, or a FIFO) in
 *                                            chunks of at most CHUNK bytes with pauses (the
 *                                            mcvar follow test's writer) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gio.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static char dir[2048];

static char *path(const char *name) {
    static char p[4][4096];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void sleep_us(long us) {
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

typedef struct bytes {
    unsigned char *p;
    size_t n;
} bytes;

static bytes slurp(const char *p) {
    bytes b = {0};
    FILE *f = fopen(p, "rb");
    if (!f) return b;
    fseek(f, 0, SEEK_END);
    b.n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc(b.n + 1);
    if (fread(b.p, 1, b.n, f) != b.n) b.n = 0;
    fclose(f);
    return b;
}

static void put(const char *p, const void *d, size_t n) {
    FILE *f = fopen(p, "wb");
    CHECK(f && fwrite(d, 1, n, f) == n, "write %s", p);
    if (f) fclose(f);
}

/* The complete blocked-gzip bytes of text (gio's writer, small blocks: many members). */
static bytes compress(const bytes *text, size_t block) {
    gio_writer *w;
    char err[GIO_ERRLEN];
    CHECK(gio_writer_open(&w, path("complete.tmp"), 1, block, err) == 0, "open %s", err);
    CHECK(gio_writer_write(w, text->p, text->n, err) == 0, "write %s", err);
    CHECK(gio_writer_close(w, err) == 0, "close %s", err);
    return slurp(path("complete.tmp"));
}

/* Offset of member k (0-based) of a BGZF byte string. */
static size_t member_at(const bytes *z, int k) {
    size_t at = 0;
    for (int i = 0; i < k; i++) at += (size_t)(z->p[at + 16] | z->p[at + 17] << 8) + 1;
    return at;
}

/* Writes data to dst in chunks of 1..maxchunk bytes (pseudo-random) with pause_us between,
 * after create_delay_us; a FIFO is opened for writing (waiting for the reader). Keeps dst open
 * until `hold` (a pipe's read end) reads end of file, then exits; the parent waits for it. */
static void feed_bytes(const char *dst, const unsigned char *d, size_t n, size_t maxchunk,
                       long pause_us, long create_delay_us, int hold) {
    if (create_delay_us) sleep_us(create_delay_us);
    struct stat st;
    int fifo = stat(dst, &st) == 0 && S_ISFIFO(st.st_mode);
    int fd = open(dst, fifo ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "feed: cannot open %s: %s\n", dst, strerror(errno));
        _exit(1);
    }
    unsigned long long lcg = 12345;
    for (size_t at = 0; at < n;) {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t k = 1 + (size_t)(lcg >> 33) % maxchunk;
        if (k > n - at) k = n - at;
        ssize_t w = write(fd, d + at, k);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) _exit(errno == EPIPE ? 0 : 1); /* a reader that stopped on an error */
        at += (size_t)w;
        if (pause_us) sleep_us(pause_us);
    }
    if (hold >= 0) {
        char c;
        while (read(hold, &c, 1) > 0) {}
    }
    close(fd);
}

typedef struct child {
    pid_t pid;
    int release; /* write end: closing it lets the child close its file and exit */
} child;

static child spawn_feed(const char *dst, const bytes *b, size_t maxchunk, long pause_us,
                        long create_delay_us) {
    int fds[2];
    child c = {-1, -1};
    if (pipe(fds) != 0) return c;
    c.pid = fork();
    if (c.pid == 0) {
        close(fds[1]);
        feed_bytes(dst, b->p, b->n, maxchunk, pause_us, create_delay_us, fds[0]);
        _exit(0);
    }
    close(fds[0]);
    c.release = fds[1];
    return c;
}

static int finish(child *c) {
    if (c->release >= 0) close(c->release);
    int st = 0;
    if (c->pid > 0) waitpid(c->pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

typedef struct tapped {
    unsigned char *p;
    size_t n, cap;
} tapped;

static void tap(void *ctx, const void *raw, size_t len) {
    tapped *t = ctx;
    if (t->n + len > t->cap) {
        t->cap = (t->n + len) * 2;
        t->p = realloc(t->p, t->cap);
    }
    memcpy(t->p + t->n, raw, len);
    t->n += len;
}

/* Follows p and joins its lines with '\n' into out; returns the reader's last status. */
static int follow_lines(const char *p, const gio_follow_options *o, bytes *out, char *err) {
    gio_reader *r;
    out->p = NULL;
    out->n = 0;
    int rc = gio_follow_open(&r, p, o, err);
    if (rc) return rc;
    size_t cap = 1 << 16;
    out->p = malloc(cap);
    char *line;
    size_t len;
    while ((rc = gio_reader_line(r, &line, &len, err)) == GIO_OK) {
        if (out->n + len + 1 > cap) {
            cap = (out->n + len + 1) * 2;
            out->p = realloc(out->p, cap);
        }
        memcpy(out->p + out->n, line, len);
        out->n += len;
        out->p[out->n++] = '\n';
    }
    gio_reader_close(r);
    return rc == GIO_EOF ? GIO_OK : rc;
}

static int same(const bytes *a, const bytes *b) {
    return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
}

static gio_follow_options opts(double timeout_s, tapped *t) {
    gio_follow_options o;
    gio_follow_options_default(&o);
    o.timeout_s = timeout_s;
    o.poll_max_s = 0.02;
    o.buffer_size = 4096; /* lines cross buffer refills often */
    if (t) {
        o.tap = tap;
        o.tap_ctx = t;
    }
    return o;
}

/* The file appears after the reader started, grows in uneven chunks (member headers and
 * blocks split anywhere) with pauses; the reader ends at the end-of-file block while the
 * writer still has the file open, with the complete file's lines and every raw byte tapped. */
static void growing_file(const bytes *text, const bytes *z) {
    char err[GIO_ERRLEN] = "";
    tapped t = {0};
    gio_follow_options o = opts(10, &t);
    child c = spawn_feed(path("grow.csv.gz"), z, 3000, 700, 30000);
    bytes got;
    double t0 = gio_now();
    int rc = follow_lines(path("grow.csv.gz"), &o, &got, err);
    double took = gio_now() - t0;
    CHECK(rc == GIO_OK, "growing file: rc %d, %s", rc, err);
    CHECK(same(&got, text), "growing file: %zu bytes of lines, expected %zu", got.n, text->n);
    CHECK(t.n == z->n && memcmp(t.p, z->p, z->n) == 0, "growing file: tapped %zu raw bytes of %zu",
          t.n, z->n);
    CHECK(waitpid(c.pid, NULL, WNOHANG) == 0, "growing file: the writer exited before the reader ended");
    CHECK(finish(&c) == 0, "growing file: writer failed");
    printf("growing file: %zu compressed bytes, %zu lines bytes, %.2f s\n", z->n, got.n, took);
    free(got.p);
    free(t.p);
}

/* Lines come as their blocks arrive, not once a buffer is full: the writer writes the first
 * 20 blocks and waits until the reader has its first line (it would wait forever for a reader
 * that fills its 1 MiB buffer first, and the timeout would end the test), then the rest. */
static void lines_as_they_arrive(const bytes *text, const bytes *z) {
    int go[2];
    CHECK(pipe(go) == 0, "pipe");
    size_t part = member_at(z, 20);
    pid_t pid = fork();
    if (pid == 0) {
        close(go[1]);
        int fd = open(path("early.csv.gz"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char c;
        int ok = fd >= 0 && write(fd, z->p, part) == (ssize_t)part && read(go[0], &c, 1) == 1 &&
                 write(fd, z->p + part, z->n - part) == (ssize_t)(z->n - part);
        _exit(ok ? 0 : 1);
    }
    close(go[0]);
    char err[GIO_ERRLEN] = "", *line;
    size_t len;
    gio_follow_options o;
    gio_follow_options_default(&o);
    o.timeout_s = 3; /* the default 1 MiB buffer: far more than the 20 blocks */
    gio_reader *r = NULL;
    double t0 = gio_now();
    int rc = gio_follow_open(&r, path("early.csv.gz"), &o, err);
    if (!rc) rc = gio_reader_line(r, &line, &len, err);
    double waited = gio_now() - t0;
    CHECK(rc == GIO_OK && len > 0 && memcmp(line, text->p, len) == 0 && waited < 2,
          "first line before the rest was written: rc %d after %.2f s, %s", rc, waited, err);
    CHECK(write(go[1], "g", 1) == 1, "signal");
    close(go[1]);
    size_t at = len + 1;
    while (!rc && (rc = gio_reader_line(r, &line, &len, err)) == GIO_OK) {
        CHECK(at + len < text->n && memcmp(line, text->p + at, len) == 0, "line at %zu", at);
        at += len + 1;
    }
    CHECK(rc == GIO_EOF && at == text->n, "then the rest: rc %d at %zu of %zu, %s", rc, at, text->n, err);
    if (r) gio_reader_close(r);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "early writer failed");
}

static void fifo_input(const char *name, const bytes *send, const bytes *want, int want_rc,
                       const char *needle) {
    char err[GIO_ERRLEN] = "";
    unlink(path(name));
    CHECK(mkfifo(path(name), 0600) == 0, "mkfifo %s", strerror(errno));
    gio_follow_options o = opts(10, NULL);
    child c = spawn_feed(path(name), send, 5000, 200, 0);
    close(c.release); /* the writer closes the FIFO when it is done: that is its end */
    c.release = -1;
    bytes got;
    int rc = follow_lines(path(name), &o, &got, err);
    CHECK(rc == want_rc, "%s: rc %d (want %d), %s", name, rc, want_rc, err);
    if (want) CHECK(same(&got, want), "%s: %zu bytes of lines, expected %zu", name, got.n, want->n);
    if (needle) CHECK(strstr(err, needle) && strstr(err, name), "%s: message '%s' lacks '%s'", name, err, needle);
    finish(&c);
    free(got.p);
}

/* An anonymous pipe (a program's standard input), opened by its /proc/self/fd name: read to
 * the writer's close. */
static void pipe_input(const bytes *z, const bytes *text) {
    int fds[2];
    CHECK(pipe(fds) == 0, "pipe");
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        for (size_t at = 0; at < z->n;) {
            size_t k = z->n - at < 4096 ? z->n - at : 4096;
            ssize_t w = write(fds[1], z->p + at, k);
            if (w <= 0) _exit(1);
            at += (size_t)w;
            sleep_us(300);
        }
        _exit(0);
    }
    close(fds[1]);
    char name[64], err[GIO_ERRLEN] = "";
    snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
    gio_follow_options o = opts(10, NULL);
    bytes got;
    int rc = follow_lines(name, &o, &got, err);
    CHECK(rc == GIO_OK && same(&got, text), "pipe: rc %d, %zu bytes of lines, %s", rc, got.n, err);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    free(got.p);
}

/* A complete (regular) file that must give error rc with a message naming the file. */
static void bad_file(const char *name, const bytes *content, int want_rc, const char *needle) {
    char err[GIO_ERRLEN] = "";
    put(path(name), content->p, content->n);
    gio_follow_options o = opts(2, NULL);
    bytes got;
    int rc = follow_lines(path(name), &o, &got, err);
    CHECK(rc == want_rc && strstr(err, needle) && strstr(err, name),
          "%s: rc %d (want %d), message '%s' (want '%s' and the file)", name, rc, want_rc, err, needle);
    free(got.p);
}

/* Damage arriving mid-stream: the lines before the damaged block are delivered, then the
 * error names the block and its offset. */
static void garbled_growing(const char *name, const bytes *text, const bytes *z, size_t poke,
                            const char *needle, const char *block_word) {
    bytes bad = {malloc(z->n), z->n};
    memcpy(bad.p, z->p, z->n);
    bad.p[poke] ^= 0x5a;
    char err[GIO_ERRLEN] = "";
    gio_follow_options o = opts(10, NULL);
    child c = spawn_feed(path(name), &bad, 3000, 300, 20000);
    bytes got;
    int rc = follow_lines(path(name), &o, &got, err);
    CHECK(rc == GIO_EFORMAT && strstr(err, needle) && strstr(err, block_word) && strstr(err, name),
          "garbled at %zu: rc %d, '%s' (want '%s', '%s')", poke, rc, err, needle, block_word);
    CHECK(got.n > 0 && got.n < text->n && memcmp(got.p, text->p, got.n) == 0,
          "garbled at %zu: %zu good bytes of lines first", poke, got.n);
    finish(&c);
    free(got.p);
    free(bad.p);
}

static void timeouts(const bytes *z) {
    char err[GIO_ERRLEN] = "";
    bytes got;
    gio_follow_options o = opts(0.3, NULL);
    double t0 = gio_now();
    int rc = follow_lines(path("never.csv.gz"), &o, &got, err);
    double took = gio_now() - t0;
    CHECK(rc == GIO_ETIMEOUT && strstr(err, "never.csv.gz") && strstr(err, "does not exist") &&
              took >= 0.3 && took < 3, "missing file: rc %d after %.2f s, '%s'", rc, took, err);
    /* the writer stopped inside a block: the bytes of the whole blocks before it were read */
    size_t cut = member_at(z, 7) + 40;
    put(path("stalled.csv.gz"), z->p, cut);
    t0 = gio_now();
    rc = follow_lines(path("stalled.csv.gz"), &o, &got, err);
    took = gio_now() - t0;
    char want[64];
    snprintf(want, sizeof want, "after %zu bytes", member_at(z, 7));
    CHECK(rc == GIO_ETIMEOUT && strstr(err, "stalled.csv.gz") && strstr(err, want) &&
              strstr(err, "block 7") && took >= 0.3 && took < 3,
          "stalled file: rc %d after %.2f s, '%s' (want '%s')", rc, took, err, want);
    free(got.p);
    unlink(path("silent.fifo"));
    CHECK(mkfifo(path("silent.fifo"), 0600) == 0, "mkfifo");
    rc = follow_lines(path("silent.fifo"), &o, &got, err);
    CHECK(rc == GIO_ETIMEOUT && strstr(err, "silent.fifo") && strstr(err, "has not written"),
          "silent FIFO: rc %d, '%s'", rc, err);
    free(got.p);
}

/* The file shrinks under the reader (its writer truncated or replaced it). */
static void shrinking(const bytes *z) {
    char err[GIO_ERRLEN] = "";
    size_t half = member_at(z, 10);
    put(path("shrink.csv.gz"), z->p, half);
    pid_t pid = fork();
    if (pid == 0) {
        sleep_us(150000);
        _exit(truncate(path("shrink.csv.gz"), (off_t)(half / 2)) == 0 ? 0 : 1);
    }
    gio_follow_options o = opts(5, NULL);
    bytes got;
    int rc = follow_lines(path("shrink.csv.gz"), &o, &got, err);
    CHECK(rc == GIO_EIO && strstr(err, "shrank") && strstr(err, "shrink.csv.gz"),
          "shrinking file: rc %d, '%s'", rc, err);
    waitpid(pid, NULL, 0);
    free(got.p);
}

static int feed_main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: test_follow feed SRC DST CHUNK PAUSE_MS\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    bytes b = slurp(argv[2]);
    if (!b.p) return fprintf(stderr, "feed: cannot read %s\n", argv[2]), 1;
    feed_bytes(argv[3], b.p, b.n, strtoull(argv[4], NULL, 10), atol(argv[5]) * 1000, 0, -1);
    free(b.p);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "feed") == 0) return feed_main(argc, argv);
    if (argc != 2) {
        fprintf(stderr, "usage: test_follow DIR | test_follow feed SRC DST CHUNK PAUSE_MS\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    snprintf(dir, sizeof dir, "%s", argv[1]);
    mkdir(dir, 0755);
    bytes text = {malloc(1 << 20), 0};
    for (int i = 0; text.n < 400000; i++)
        text.n += (size_t)sprintf((char *)text.p + text.n, "P%06d,BANK/DESK-%d,spot,F%03d,%d.%03d\n",
                                  i, i % 7, i % 101, i * 37 % 1000, i % 1000);
    bytes z = compress(&text, 3000);
    CHECK(z.n > 10000, "compressed %zu bytes", z.n);

    growing_file(&text, &z);
    lines_as_they_arrive(&text, &z);

    /* FIFOs: blocked gzip, plain, two BGZF files one after the other (the stream's end, not
     * the first end-of-file block, ends it), and a stream cut before its end-of-file block. */
    fifo_input("bgzf.fifo", &z, &text, GIO_OK, NULL);
    fifo_input("plain.fifo", &text, &text, GIO_OK, NULL);
    bytes zz = {malloc(2 * z.n), 2 * z.n}, tt = {malloc(2 * text.n), 2 * text.n};
    memcpy(zz.p, z.p, z.n);
    memcpy(zz.p + z.n, z.p, z.n);
    memcpy(tt.p, text.p, text.n);
    memcpy(tt.p + text.n, text.p, text.n);
    fifo_input("twice.fifo", &zz, &tt, GIO_OK, NULL);
    bytes cut = {z.p, z.n - 28};
    fifo_input("cut.fifo", &cut, NULL, GIO_EFORMAT, NULL);

    pipe_input(&z, &text);

    /* A regular file ends at its first end-of-file block: what follows it is an error. */
    bad_file("twice.csv.gz", &zz, GIO_EFORMAT, "after the BGZF end-of-file block");
    bad_file("plain.csv", &text, GIO_EFORMAT, "cannot be followed");
    bytes eof_only = {(unsigned char *)gio_bgzf_eof_block, sizeof gio_bgzf_eof_block};
    put(path("empty.csv.gz"), eof_only.p, eof_only.n);
    gio_follow_options o = opts(2, NULL);
    bytes got;
    char err[GIO_ERRLEN] = "";
    CHECK(follow_lines(path("empty.csv.gz"), &o, &got, err) == GIO_OK && got.n == 0,
          "empty blocked gzip: %s", err);
    free(got.p);

    /* Damage mid-stream: deflate data of block 20 (CRC / inflate check), the header of
     * block 30 (the framing check). */
    garbled_growing("garbled-data.csv.gz", &text, &z, member_at(&z, 20) + 30, "corrupt compressed block", "block 20");
    garbled_growing("garbled-header.csv.gz", &text, &z, member_at(&z, 30), "bad gzip header", "block 30");

    timeouts(&z);
    shrinking(&z);

    free(zz.p);
    free(tt.p);
    free(text.p);
    free(z.p);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("follow reader: all checks passed\n");
    return 0;
}
