/* gio_mpi.c: the only compilation unit of the node programs that calls MPI functions
 * (CoMD's parallel.c habit). Keeps MPI's int counts out of the rest of the code. */
#include "gio_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "gio.h"

#define CHUNK ((size_t)1 << 30) /* below INT_MAX, so counts fit MPI's int */

int gio_mpi_init(int *argc, char ***argv) {
    return MPI_Init(argc, argv) == MPI_SUCCESS ? GIO_OK : GIO_EPEER;
}

void gio_mpi_finalize(void) { MPI_Finalize(); }

int gio_mpi_rank(void) {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int gio_mpi_size(void) {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

void gio_mpi_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

double gio_mpi_wtime(void) { return MPI_Wtime(); }

int gio_mpi_agree(int status, int *first_rank) {
    int me = gio_mpi_rank(), n = gio_mpi_size();
    int mine = status != 0 ? me : n, first = n;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first_rank) *first_rank = first < n ? first : -1;
    if (first == n) return 0;
    int st = status;
    MPI_Bcast(&st, 1, MPI_INT, first, MPI_COMM_WORLD);
    return st;
}

int gio_mpi_bcast(void *buf, size_t len, int root) {
    char *p = buf;
    while (len > 0) {
        size_t n = len < CHUNK ? len : CHUNK;
        if (MPI_Bcast(p, (int)n, MPI_BYTE, root, MPI_COMM_WORLD) != MPI_SUCCESS)
            return GIO_EPEER;
        p += n;
        len -= n;
    }
    return GIO_OK;
}

int gio_mpi_bcast_idle(void *buf, size_t len, int root) {
    if (len > CHUNK) return GIO_EARG;
    MPI_Request req;
    if (MPI_Ibcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
        return GIO_EPEER;
    if (gio_mpi_rank() == root)
        return MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS ? GIO_OK : GIO_EPEER;
    double pause = 1e-4; /* seconds; doubling to 10 ms while the root keeps us waiting */
    for (;;) {
        int done = 0;
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return GIO_EPEER;
        if (done) return GIO_OK;
        struct timespec ts = {0, (long)(pause * 1e9)};
        nanosleep(&ts, NULL);
        if (pause < 0.01) pause *= 2;
    }
}

int gio_mpi_alltoall_sections(const void *send, size_t send_len, void *recv,
                              const int *sources, const size_t *offsets,
                              const size_t *lens, int nsources) {
    int n = gio_mpi_size(), me = gio_mpi_rank(), rc = GIO_ENOMEM;
    int *sc = calloc((size_t)n, sizeof *sc), *sd = calloc((size_t)n, sizeof *sd);
    int *rcn = calloc((size_t)n, sizeof *rcn), *rd = calloc((size_t)n, sizeof *rd);
    if (!sc || !sd || !rcn || !rd) goto err;
    for (int i = 0; i < nsources; i++) {
        if (lens[i] > INT_MAX || offsets[i] > INT_MAX) { rc = GIO_EARG; goto err; }
        /* A source keeps its own section: it read it straight into place. */
        if (sources[i] == me) {
            for (int d = 0; d < n; d++) sc[d] = d == me ? 0 : (int)send_len;
        } else {
            rcn[sources[i]] = (int)lens[i];
            rd[sources[i]] = (int)offsets[i];
        }
    }
    rc = MPI_Alltoallv(send, sc, sd, MPI_BYTE, recv, rcn, rd, MPI_BYTE, MPI_COMM_WORLD) ==
                 MPI_SUCCESS ? GIO_OK : GIO_EPEER;
err:
    free(sc); free(sd); free(rcn); free(rd);
    return rc;
}

int64_t gio_mpi_max_i64(int64_t v) {
    int64_t out = v;
    MPI_Allreduce(&v, &out, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

uint64_t gio_mpi_sum_u64(uint64_t v) {
    uint64_t out = v;
    MPI_Allreduce(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

double gio_mpi_max_double(double v) {
    double out = v;
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

double gio_mpi_min_double(double v) {
    double out = v;
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    return out;
}

static int all_in_place(void *v, size_t n, MPI_Datatype t, MPI_Op op) {
    char *p = v;
    size_t unit = t == MPI_INT64_T ? sizeof(int64_t) : sizeof(double);
    while (n > 0) {
        size_t k = n < CHUNK / unit ? n : CHUNK / unit;
        if (MPI_Allreduce(MPI_IN_PLACE, p, (int)k, t, op, MPI_COMM_WORLD) != MPI_SUCCESS)
            return GIO_EPEER;
        p += k * unit;
        n -= k;
    }
    return GIO_OK;
}

int gio_mpi_sum_i64s(int64_t *v, size_t n) { return all_in_place(v, n, MPI_INT64_T, MPI_SUM); }
int gio_mpi_min_doubles(double *v, size_t n) { return all_in_place(v, n, MPI_DOUBLE, MPI_MIN); }
int gio_mpi_max_doubles(double *v, size_t n) { return all_in_place(v, n, MPI_DOUBLE, MPI_MAX); }

int gio_mpi_allgather_i64(int64_t v, int64_t *all) {
    return MPI_Allgather(&v, 1, MPI_INT64_T, all, 1, MPI_INT64_T, MPI_COMM_WORLD) ==
                   MPI_SUCCESS ? GIO_OK : GIO_EPEER;
}

int gio_mpi_allgather_bytes(const void *mine, size_t len, void *all) {
    if (len > INT_MAX) return GIO_EARG;
    return MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD) ==
                   MPI_SUCCESS ? GIO_OK : GIO_EPEER;
}

int gio_mpi_send(const void *buf, size_t len, int to) {
    const char *p = buf;
    do {
        size_t n = len < CHUNK ? len : CHUNK;
        if (MPI_Send(p, (int)n, MPI_BYTE, to, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return GIO_EPEER;
        p += n;
        len -= n;
    } while (len > 0);
    return GIO_OK;
}

int gio_mpi_recv(void *buf, size_t len, int from) {
    char *p = buf;
    do {
        size_t n = len < CHUNK ? len : CHUNK;
        if (MPI_Recv(p, (int)n, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return GIO_EPEER;
        p += n;
        len -= n;
    } while (len > 0);
    return GIO_OK;
}

int gio_mpi_gather_doubles(const double *local, size_t n, double *out) {
    int np = gio_mpi_size(), me = gio_mpi_rank(), rc = GIO_ENOMEM;
    if (n > INT_MAX) return GIO_EARG;
    int cnt = (int)n, *counts = calloc((size_t)np, sizeof *counts);
    int *displs = calloc((size_t)np, sizeof *displs);
    if (!counts || !displs) goto err;
    MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
        long long at = 0;
        for (int i = 0; i < np; i++) {
            if (at > INT_MAX) { rc = GIO_EARG; goto err; }
            displs[i] = (int)at;
            at += counts[i];
        }
    }
    rc = MPI_Gatherv(local, cnt, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, 0,
                     MPI_COMM_WORLD) == MPI_SUCCESS ? GIO_OK : GIO_EPEER;
err:
    free(counts);
    free(displs);
    return rc;
}

int gio_mpi_node_layout(int *node_of_rank, int *local_rank_of_rank, int *nnodes) {
    MPI_Comm node;
    int me = gio_mpi_rank(), n = gio_mpi_size(), local = 0, leader = me;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS)
        return GIO_EPEER;
    MPI_Comm_rank(node, &local);
    MPI_Allreduce(&me, &leader, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    int mine[2] = {leader, local}, *all = malloc(sizeof(int) * 2 * (size_t)n);
    if (!all) return GIO_ENOMEM;
    MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    /* Leaders are world ranks; number nodes by the order of their leaders. */
    int count = 0;
    for (int r = 0; r < n; r++) {
        if (all[2 * r] == r) count++;
        local_rank_of_rank[r] = all[2 * r + 1];
    }
    for (int r = 0; r < n; r++) {
        int idx = 0;
        for (int q = 0; q < all[2 * r]; q++) idx += all[2 * q] == q;
        node_of_rank[r] = idx;
    }
    *nnodes = count;
    free(all);
    return GIO_OK;
}

struct gio_mpi_file {
    MPI_File fh;
};

int gio_mpi_file_open(gio_mpi_file **f, const char *path, uint64_t *size) {
    gio_mpi_file *m = malloc(sizeof *m);
    int ok = m != NULL, all_ok = 0;
    if (ok) ok = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL,
                               &m->fh) == MPI_SUCCESS;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (ok) MPI_File_close(&m->fh);
        free(m);
        return GIO_EIO;
    }
    MPI_Offset sz = 0;
    MPI_File_get_size(m->fh, &sz);
    *size = (uint64_t)sz;
    *f = m;
    return GIO_OK;
}

int gio_mpi_file_read_all(gio_mpi_file *f, uint64_t offset, void *buf, size_t len) {
    char *p = buf;
    (void)offset; /* rounds are sequential: the individual file pointer is at offset */
    do { /* every rank calls at least once: the call is collective */
        size_t n = len < CHUNK ? len : CHUNK;
        MPI_Status st;
        if (MPI_File_read_all(f->fh, p, (int)n, MPI_BYTE, &st) != MPI_SUCCESS) return GIO_EIO;
        int got = 0;
        MPI_Get_count(&st, MPI_BYTE, &got);
        if ((size_t)got != n) return GIO_EIO;
        p += n;
        len -= n;
    } while (len > 0);
    return GIO_OK;
}

void gio_mpi_file_close(gio_mpi_file *f) {
    if (!f) return;
    MPI_File_close(&f->fh);
    free(f);
}
