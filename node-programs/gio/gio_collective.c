/* gio_collective.c: one file read by every MPI rank, in rounds of buffer_size bytes.
 *
 * Every rank asks for the same bytes in the same order (they parse the same stream), so a
 * round is a collective step all ranks reach together. Modes (section 4 of
 * "Middleware and Performance Issues for Financial Risk Analytics on Blue Gene/L", docs/background.md):
 *   1. naive: every rank reads the round from the file system itself;
 *   2. root: rank 0 reads it and broadcasts it;
 *   3. mpiio: the generic MPI_File_read_all by every rank;
 *   4. two-phase: K access ranks, spread evenly over nodes, read disjoint sections (phase
 *      1); then MBC (each access rank broadcasts its section in turn) or ATV (one
 *      all-to-all) spreads them (phase 2). MBC wins for long sections and few access ranks.
 * Compressed files travel compressed: decoding happens above this source, on every rank.
 * Errors of the ranks that touch the file system are agreed in every round, so no rank is
 * left waiting in a broadcast. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gio_internal.h"
#include "gio_mpi.h"

/* Auto phase 2: the crossover of that paper's figure 5 moves to longer sections as K grows;
 * we broadcast when sections are long or access ranks few, else exchange all-to-all. */
#define MBC_MIN_SECTION (256u * 1024u)

typedef struct coll_source {
    gio_read_mode mode;
    gio_phase2 phase2;
    int rank, nranks, k, my_section, *sources;
    int fd;
    gio_mpi_file *mf;
    uint64_t size, offset;
    unsigned char *win, *sec;
    size_t cap, win_pos, win_len;
    size_t *starts, *lens;
    gio_counters counters;
} coll_source;

gio_phase2 gio_choose_phase2(size_t section_len, int access_ranks) {
    return (access_ranks <= 2 || section_len >= MBC_MIN_SECTION) ? GIO_PHASE2_MBC
                                                                   : GIO_PHASE2_ATV;
}

static void coll_close(void *ctx) {
    coll_source *c = ctx;
    if (!c) return;
    if (c->fd >= 0) close(c->fd);
    gio_mpi_file_close(c->mf);
    free(c->win);
    free(c->sec);
    free(c->sources);
    free(c->starts);
    free(c->lens);
    free(c);
}

/* Access ranks: ordered by (rank within node, node), so the first K cover every node
 * once before any node gets a second one. */
static int choose_access_ranks(coll_source *c, int requested) {
    int n = c->nranks, nnodes = 1, rc = GIO_ENOMEM;
    int *node = malloc(sizeof(int) * (size_t)n), *local = malloc(sizeof(int) * (size_t)n);
    if (!node || !local) goto err;
    rc = gio_mpi_node_layout(node, local, &nnodes);
    if (rc) goto err;
    int k = requested > 0 ? requested : (nnodes > 2 ? nnodes : 2);
    if (k > n) k = n;
    c->sources = malloc(sizeof(int) * (size_t)k);
    if (!c->sources) { rc = GIO_ENOMEM; goto err; }
    int got = 0;
    for (int level = 0; got < k; level++)
        for (int nd = 0; nd < nnodes && got < k; nd++)
            for (int r = 0; r < n; r++)
                if (node[r] == nd && local[r] == level) {
                    c->sources[got++] = r;
                    break;
                }
    c->k = k;
    c->my_section = -1;
    for (int i = 0; i < k; i++)
        if (c->sources[i] == c->rank) c->my_section = i;
    rc = GIO_OK;
err:
    free(node);
    free(local);
    return rc;
}

static int open_posix(coll_source *c, const char *path, char *err) {
    c->fd = open(path, O_RDONLY);
    struct stat st;
    if (c->fd < 0 || fstat(c->fd, &st) != 0) {
        gio_seterr(err, "cannot open: %s", strerror(errno));
        return GIO_EIO;
    }
    c->size = (uint64_t)st.st_size;
    return GIO_OK;
}

/* Agrees on a status; a rank that was fine but sees another fail says which. */
static int agree(int rc, char *err) {
    int first = -1, st = gio_mpi_agree(rc, &first);
    if (st && !rc) gio_seterr(err, "rank %d failed reading the file", first);
    return st ? (rc ? rc : GIO_EPEER) : GIO_OK;
}

/* Reads [off, off+len) of the file; short reads mean the file shrank under us. */
static int read_exact(coll_source *c, void *buf, size_t len, uint64_t off, char *err) {
    ssize_t n = gio_pread_full(c->fd, buf, len, off, &c->counters, err);
    if (n < 0) return (int)n;
    if ((size_t)n != len) {
        gio_seterr(err, "file shrank while being read");
        return GIO_EIO;
    }
    return GIO_OK;
}

static int phase2(coll_source *c, size_t len, char *err) {
    gio_phase2 how = c->phase2 != GIO_PHASE2_AUTO ? c->phase2
                                                   : gio_choose_phase2(len / (size_t)c->k, c->k);
    double t0 = gio_now();
    int rc = GIO_OK;
    if (how == GIO_PHASE2_MBC) {
        for (int i = 0; i < c->k && !rc; i++)
            if (c->lens[i]) rc = gio_mpi_bcast(c->win + c->starts[i], c->lens[i], c->sources[i]);
    } else {
        size_t mine = c->my_section >= 0 ? c->lens[c->my_section] : 0;
        rc = gio_mpi_alltoall_sections(c->sec, mine, c->win, c->sources, c->starts, c->lens,
                                       c->k);
    }
    c->counters.exchange_s += gio_now() - t0;
    for (int i = 0; i < c->k; i++)
        c->counters.mpi_bytes += i == c->my_section ? c->lens[i] * (size_t)(c->nranks - 1)
                                                    : c->lens[i];
    if (rc) gio_seterr(err, "MPI exchange failed");
    return rc;
}

static int round_two_phase(coll_source *c, size_t len, char *err) {
    for (int i = 0; i < c->k; i++) {
        c->starts[i] = len * (size_t)i / (size_t)c->k;
        c->lens[i] = len * (size_t)(i + 1) / (size_t)c->k - c->starts[i];
    }
    int rc = GIO_OK;
    if (c->my_section >= 0) {
        size_t s = c->starts[c->my_section], l = c->lens[c->my_section];
        /* Read into a separate send buffer: MPI forbids aliased send and receive buffers. */
        rc = read_exact(c, c->sec, l, c->offset + s, err);
        if (!rc) memcpy(c->win + s, c->sec, l);
    }
    rc = agree(rc, err);
    return rc ? rc : phase2(c, len, err);
}

/* One collective round: fills the window with the next len bytes on every rank. */
static int next_round(coll_source *c, size_t len, char *err) {
    int rc = GIO_OK;
    double t0;
    switch (c->mode) {
    case GIO_NAIVE:
        return read_exact(c, c->win, len, c->offset, err);
    case GIO_ROOT:
        if (c->rank == 0) rc = read_exact(c, c->win, len, c->offset, err);
        if ((rc = agree(rc, err))) return rc;
        t0 = gio_now();
        rc = gio_mpi_bcast(c->win, len, 0);
        c->counters.exchange_s += gio_now() - t0;
        c->counters.mpi_bytes += c->rank == 0 ? len * (size_t)(c->nranks - 1) : len;
        return rc;
    case GIO_MPIIO:
        t0 = gio_now();
        rc = gio_mpi_file_read_all(c->mf, c->offset, c->win, len);
        c->counters.read_s += gio_now() - t0;
        c->counters.fs_bytes += len;
        if (rc) gio_seterr(err, "MPI_File_read_all failed");
        return agree(rc, err);
    case GIO_TWO_PHASE:
        return round_two_phase(c, len, err);
    }
    return GIO_EARG;
}

static ssize_t coll_read(void *ctx, void *buf, size_t len, char *err) {
    coll_source *c = ctx;
    if (c->win_pos == c->win_len) {
        uint64_t left = c->size - c->offset;
        if (left == 0) return 0; /* every rank knows the size: no round needed */
        size_t n = left < c->cap ? (size_t)left : c->cap;
        int rc = next_round(c, n, err);
        if (rc) return rc;
        c->offset += n;
        c->win_pos = 0;
        c->win_len = n;
    }
    size_t k = c->win_len - c->win_pos < len ? c->win_len - c->win_pos : len;
    memcpy(buf, c->win + c->win_pos, k);
    c->win_pos += k;
    return (ssize_t)k;
}

static int open_mode(coll_source *c, const char *path, int access_ranks, char *err) {
    int rc = GIO_OK;
    uint64_t size = 0;
    switch (c->mode) {
    case GIO_NAIVE:
        return agree(open_posix(c, path, err), err);
    case GIO_ROOT:
        if (c->rank == 0) rc = open_posix(c, path, err);
        if ((rc = agree(rc, err))) return rc;
        size = c->size;
        rc = gio_mpi_bcast(&size, sizeof size, 0);
        c->size = size;
        return rc;
    case GIO_MPIIO:
        rc = gio_mpi_file_open(&c->mf, path, &c->size);
        if (rc) gio_seterr(err, "cannot open with MPI_File_open");
        return rc;
    case GIO_TWO_PHASE:
        if ((rc = choose_access_ranks(c, access_ranks))) return rc;
        c->starts = calloc((size_t)c->k, sizeof *c->starts);
        c->lens = calloc((size_t)c->k, sizeof *c->lens);
        c->sec = malloc(c->cap / (size_t)c->k + 1);
        if (!c->starts || !c->lens || !c->sec) rc = GIO_ENOMEM;
        else if (c->my_section >= 0) rc = open_posix(c, path, err);
        if ((rc = agree(rc, err))) return rc;
        size = c->size;
        rc = gio_mpi_bcast(&size, sizeof size, c->sources[0]);
        c->size = size;
        return rc;
    }
    return GIO_EARG;
}

int gio_collective_source_open(gio_source *src, const char *path, const gio_read_options *o,
                               char *err) {
    int rc = GIO_ENOMEM;
    coll_source *c = calloc(1, sizeof *c);
    if (c) {
        c->fd = -1;
        c->mode = o->mode;
        c->phase2 = o->phase2;
        c->rank = gio_mpi_rank();
        c->nranks = gio_mpi_size();
        c->cap = o->buffer_size < GIO_MIN_BUFFER ? GIO_MIN_BUFFER : o->buffer_size;
        c->win = malloc(c->cap);
    }
    /* Allocation failures are agreed too, so no rank waits alone in a collective. */
    rc = agree(c && c->win ? GIO_OK : GIO_ENOMEM, err);
    if (!rc) rc = open_mode(c, path, o->access_ranks, err);
    if (rc) {
        coll_close(c);
        return rc;
    }
    src->read = coll_read;
    src->close = coll_close;
    src->ctx = c;
    src->counters = &c->counters;
    return GIO_OK;
}

/* ---- gio_follow_open_collective: rank 0 follows the input, every rank gets its bytes ----
 * Decoded bytes are broadcast (not the compressed ones as above): a growing file's end is
 * found by rank 0's decoder framing alone, so the other ranks need no follow logic, and the
 * inputs that are streamed are small next to the work that follows them. One broadcast of
 * the count (negative: rank 0's error, so no rank waits alone; the other ranks wait for it
 * asleep, not spinning) and one of the bytes per round. */
typedef struct follow_bcast {
    gio_reader *inner; /* rank 0 only */
    char *path;
    int rank, nranks;
    gio_counters counters;
} follow_bcast;

static void follow_bcast_close(void *ctx) {
    follow_bcast *b = ctx;
    if (!b) return;
    gio_reader_close(b->inner);
    free(b->path);
    free(b);
}

static ssize_t follow_bcast_read(void *ctx, void *buf, size_t len, char *err) {
    follow_bcast *b = ctx;
    int64_t n = 0;
    if (b->rank == 0) n = gio_reader_read(b->inner, buf, len, err);
    double t0 = gio_now();
    int rc = gio_mpi_bcast_idle(&n, sizeof n, 0); /* rank 0 may wait long for the producer */
    if (!rc && n > 0) rc = gio_mpi_bcast(buf, (size_t)n, 0);
    b->counters.exchange_s += gio_now() - t0;
    if (rc) {
        gio_seterr(err, "%s: MPI broadcast of the followed input failed", b->path);
        return rc < 0 ? rc : GIO_EPEER;
    }
    if (n > 0) b->counters.mpi_bytes += b->rank == 0 ? (uint64_t)n * (uint64_t)(b->nranks - 1)
                                                     : (uint64_t)n;
    if (b->rank == 0) {
        const gio_counters *in = gio_reader_counters(b->inner);
        b->counters.fs_bytes = in->fs_bytes;
        b->counters.read_s = in->read_s;
        b->counters.inflate_s = in->inflate_s;
        b->counters.decoded_bytes = in->decoded_bytes;
    }
    if (n < 0 && b->rank != 0) gio_seterr(err, "%s: rank 0 failed reading it", b->path);
    return (ssize_t)n;
}

int gio_follow_open_collective(gio_reader **r, const char *path, const gio_follow_options *o,
                               char *err) {
    follow_bcast *b = calloc(1, sizeof *b);
    int rc = b && (b->path = strdup(path)) ? GIO_OK : GIO_ENOMEM;
    if (rc) gio_seterr(err, "out of memory");
    else {
        b->rank = gio_mpi_rank();
        b->nranks = gio_mpi_size();
        if (b->rank == 0) rc = gio_follow_open(&b->inner, path, o, err);
    }
    /* the others wait for rank 0's open (perhaps for the file to appear) without spinning */
    int root_rc = rc;
    if (gio_mpi_bcast_idle(&root_rc, sizeof root_rc, 0) && !rc) rc = GIO_EPEER;
    int first = -1, st = gio_mpi_agree(rc, &first);
    if (st && !rc) gio_seterr(err, "%s: rank %d failed opening it", path, first);
    rc = st ? (rc ? rc : GIO_EPEER) : GIO_OK;
    int compressed = !rc && b->rank == 0 ? gio_reader_is_compressed(b->inner) : 0;
    if (!rc && gio_mpi_bcast(&compressed, sizeof compressed, 0)) {
        gio_seterr(err, "%s: MPI broadcast failed", path);
        rc = GIO_EPEER;
    }
    if (rc) {
        follow_bcast_close(b);
        return rc;
    }
    gio_source src = {follow_bcast_read, follow_bcast_close, b, &b->counters};
    return gio_reader_wrap(r, &src, o->buffer_size, compressed, err);
}
