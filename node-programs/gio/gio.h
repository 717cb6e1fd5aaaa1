/* gio: Gantry's input/output library for node programs.
 *
 * Layers, bottom to top (the rio.h idea: one small backend struct, so compression and
 * collective reads are just more backends):
 *   1. a byte source (gio_source): a POSIX file, or a collective read of one file by all
 *      MPI ranks (gio_collective.c, modes naive/root/mpiio/two-phase), or an input still
 *      being written, or a FIFO, followed as it arrives (gio_follow.c);
 *   2. optional blocked-gzip (BGZF) decoding on top of a source, found by magic bytes 1f 8b;
 *   3. a buffered line reader handing out lines from a large user-space buffer.
 * Writers produce plain files or blocked gzip, always under a temporary name first.
 *
 * Status rule: functions return GIO_OK (0) or a negative GIO_E* code and, where an error
 * buffer is passed, a message in it. Every exported symbol starts with gio_. */
#ifndef GIO_H
#define GIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum {
    GIO_OK = 0,
    GIO_EOF = 1,          /* not an error: no more lines */
    GIO_EIO = -1,         /* file system error */
    GIO_EFORMAT = -2,     /* corrupt or truncated compressed data, unsupported gzip */
    GIO_ENOMEM = -3,
    GIO_EARG = -4,        /* bad argument or option */
    GIO_EPEER = -5,       /* another rank failed during a collective step */
    GIO_ETIMEOUT = -6     /* a followed input brought no new byte within its timeout */
};

#define GIO_ERRLEN 512
/* 1 MiB reads fast without costing the node program much memory (figure 6 of "Middleware and
 * Performance Issues for Financial Risk Analytics on Blue Gene/L", docs/background.md); 16 KiB
 * blocks are that middleware's compression block size. */
#define GIO_DEFAULT_BUFFER (1u << 20)
#define GIO_MIN_BUFFER 4096u
#define GIO_BGZF_MAX_BLOCK 65280u         /* as bgzip: a stored block still fits in 64 KiB */
#define GIO_BGZF_DEFAULT_BLOCK 16384u

/* Per-rank counters; each reader owns one and adds to it. */
typedef struct gio_counters {
    uint64_t fs_bytes;      /* bytes read from the file system by this rank */
    uint64_t mpi_bytes;     /* file bytes this rank sent or received through MPI */
    uint64_t decoded_bytes; /* bytes inflated from compressed input (0 for plain files) */
    double read_s;          /* seconds in file-system reads */
    double exchange_s;      /* seconds in MPI exchanges of file data */
    double inflate_s;       /* seconds inflating blocks */
} gio_counters;

/* A byte source. read() returns bytes read (> 0), 0 at end of data, or a negative GIO_E*
 * code with a message in err. close() releases ctx and everything it owns. */
typedef struct gio_source {
    ssize_t (*read)(void *ctx, void *buf, size_t len, char *err);
    void (*close)(void *ctx);
    void *ctx;
    gio_counters *counters; /* owned by ctx: what this source read and moved */
} gio_source;

/* Collective read modes (section 4 of "Middleware and Performance Issues for Financial Risk Analytics on Blue Gene/L", docs/background.md). */
typedef enum { GIO_NAIVE, GIO_ROOT, GIO_MPIIO, GIO_TWO_PHASE } gio_read_mode;
typedef enum { GIO_PHASE2_AUTO, GIO_PHASE2_MBC, GIO_PHASE2_ATV } gio_phase2;

typedef struct gio_read_options {
    gio_read_mode mode;
    int access_ranks;       /* two-phase K; 0 = automatic */
    gio_phase2 phase2;
    size_t buffer_size;     /* user-space buffer; also the collective round size */
} gio_read_options;

void gio_read_options_default(gio_read_options *o);
int gio_parse_read_mode(const char *s, gio_read_mode *out);
int gio_parse_phase2(const char *s, gio_phase2 *out);
const char *gio_read_mode_name(gio_read_mode m);

/* Sources. */
int gio_file_source_open(gio_source *src, const char *path, char *err);
/* Collective: every rank of the job calls it with the same path and options, and then
 * reads in lockstep (every rank reads the same stream to the same point). */
int gio_collective_source_open(gio_source *src, const char *path,
                               const gio_read_options *o, char *err);
/* The phase-2 algorithm auto mode picks for a section length and K (exposed for tests). */
gio_phase2 gio_choose_phase2(size_t section_len, int access_ranks);

/* BGZF decoder over a raw source; takes ownership of raw. The first bytes (already read
 * by magic detection) are passed in as prefix. */
int gio_bgzf_source_open(gio_source *dst, gio_source *raw, const void *prefix,
                         size_t prefix_len, char *err);

/* Buffered line reader. */
typedef struct gio_reader gio_reader;

/* Opens path: plain POSIX reads when o is NULL, else a collective read with o. Detects
 * blocked gzip by magic bytes. */
int gio_reader_open(gio_reader **r, const char *path, const gio_read_options *o,
                    char *err);
/* Wraps an already open raw source (takes ownership). */
int gio_reader_from_source(gio_reader **r, gio_source *raw, size_t buffer_size,
                           char *err);
/* Next line without its '\n' (a '\r' is kept: CSV parsing trims it). The pointer is valid
 * until the next call; the line may be modified in place, and line[len] may be written
 * (e.g. a terminating NUL). Returns GIO_OK, GIO_EOF, or an error. A final line without '\n' is
 * still a line. Lines longer than the buffer grow it. */
int gio_reader_line(gio_reader *r, char **line, size_t *len, char *err);
/* Raw decoded bytes (bulk reads, bypassing line splitting); returns count, 0 at end, <0. */
ssize_t gio_reader_read(gio_reader *r, void *buf, size_t len, char *err);
uint64_t gio_reader_line_number(const gio_reader *r); /* 1-based number of the last line */
int gio_reader_is_compressed(const gio_reader *r);
const gio_counters *gio_reader_counters(const gio_reader *r);
void gio_reader_close(gio_reader *r);

/* Reading input that is still being written (a streamed stage's input; node-programs/README.md,
 * "Reading streamed input"). The path names:
 *   - a regular blocked-gzip file that may still be growing: read as it grows, whole BGZF
 *     blocks only (a block is complete when its BSIZE bytes are there), waiting at the current
 *     end (sleeps from poll_min_s doubling to poll_max_s), and ending exactly at its first
 *     empty member, the 28-byte end-of-file block (gio_bgzf_eof_block); bytes after it are an
 *     error (so concatenated BGZF files cannot be followed). A plain (not gzip) regular file
 *     has no end marker and is refused;
 *   - a FIFO or pipe: read sequentially to the end of the stream (the writer's close), plain
 *     or blocked gzip (which must then end with its end-of-file block, as always);
 *   - nothing yet: waited for, as for new bytes.
 * No new byte for timeout_s seconds (no file, no growth, no data in the FIFO) gives
 * GIO_ETIMEOUT with the file and the bytes read so far; a file that shrinks is GIO_EIO. Every
 * message of the follow layer starts with the path. Memory stays bounded (a 256 KiB window of
 * compressed bytes, the decoder's and the reader's buffers). */
typedef struct gio_follow_options {
    double timeout_s;              /* no-progress limit, > 0 (default 600) */
    double poll_min_s, poll_max_s; /* waits at a file's end (defaults 0.001 and 0.1) */
    size_t buffer_size;            /* the line reader's buffer and the collective round */
    /* Called with every raw (file) byte read, in order, e.g. for a checksum; NULL for none.
     * In the collective call only rank 0 reads the file, so only rank 0 calls it. */
    void (*tap)(void *tap_ctx, const void *raw, size_t len);
    void *tap_ctx;
} gio_follow_options;

void gio_follow_options_default(gio_follow_options *o);
/* One process: a line reader (gio_reader_line, gio_reader_read) over the followed input. */
int gio_follow_open(gio_reader **r, const char *path, const gio_follow_options *o, char *err);
/* Every rank of the job calls it with the same path and options: rank 0 alone follows the
 * input (a FIFO's bytes can go to one reader only, and one reader decides where a growing file
 * ends) and broadcasts the decoded bytes in rounds of buffer_size, so every rank reads the
 * same lines in lockstep, as with gio_reader_open's collective modes. */
int gio_follow_open_collective(gio_reader **r, const char *path, const gio_follow_options *o,
                               char *err);

/* Writer: plain or blocked gzip. Writes to tmp_path; gio_writer_close flushes and closes;
 * the caller renames when the whole job agreed on success. */
typedef struct gio_writer gio_writer;
int gio_writer_open(gio_writer **w, const char *tmp_path, int compress, size_t block_size,
                    char *err);
int gio_writer_write(gio_writer *w, const void *buf, size_t len, char *err);
int gio_writer_printf(gio_writer *w, char *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int gio_writer_close(gio_writer *w, char *err); /* frees w even on error */

/* One BGZF member holding data (len <= GIO_BGZF_MAX_BLOCK); out needs 65536 bytes.
 * Returns the member size. Exposed for the generator and tests. */
size_t gio_bgzf_encode_block(void *compressor, const void *data, size_t len, void *out);
extern const unsigned char gio_bgzf_eof_block[28];

double gio_now(void); /* monotonic seconds */
double gio_cpu_now(void); /* CPU seconds of this process (all threads) */

#endif
