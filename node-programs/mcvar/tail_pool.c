/* tail_pool.c: the exact smallest P&Ls of a growing prefix of scenarios (tail_pool.h). */
#include "tail_pool.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gio_mpi.h"

int tail_pool_init(tail_pool *t, int nnodes) {
    memset(t, 0, sizeof *t);
    t->nnodes = nnodes;
    t->thr = malloc(sizeof(double) * (size_t)nnodes);
    t->v = calloc((size_t)nnodes, sizeof *t->v);
    t->len = calloc((size_t)nnodes, sizeof *t->len);
    t->dropped = calloc((size_t)nnodes, 1);
    if (!t->thr || !t->v || !t->len || !t->dropped) return -1;
    for (int i = 0; i < nnodes; i++) t->thr[i] = INFINITY;
    return 0;
}

void tail_pool_free(tail_pool *t) {
    for (int i = 0; t->v && i < t->nnodes; i++) free(t->v[i]);
    free(t->v);
    free(t->thr);
    free(t->len);
    free(t->dropped);
    memset(t, 0, sizeof *t);
}

/* A double's bits as an unsigned key in the order of the values, and back (sign-magnitude to
 * offset binary: Knuth, TAOCP vol. 3, 5.2.5); -0.0 gets +0.0's key. */
static uint64_t key_of(double x) {
    if (x == 0) x = 0.0;
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

static double value_of(uint64_t k) {
    uint64_t u = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Ascending, by least-significant-digit radix sort of the keys, 8 bits a pass (a pass whose
 * digit is the same for every key is skipped); key and tmp hold n keys each. */
static void sort_values(double *a, long long n, uint64_t *key, uint64_t *tmp) {
    for (long long i = 0; i < n; i++) key[i] = key_of(a[i]);
    uint64_t *from = key, *to = tmp;
    for (int shift = 0; shift < 64 && n > 0; shift += 8) {
        long long cnt[256] = {0};
        for (long long i = 0; i < n; i++) cnt[(from[i] >> shift) & 255]++;
        if (cnt[(from[0] >> shift) & 255] == n) continue;
        long long at = 0;
        for (int b = 0; b < 256; b++) {
            long long c = cnt[b];
            cnt[b] = at;
            at += c;
        }
        for (long long i = 0; i < n; i++) to[cnt[(from[i] >> shift) & 255]++] = from[i];
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    for (long long i = 0; i < n; i++) a[i] = value_of(from[i]);
}

/* Node i's pool merged with the sorted values add[0..n). */
static int merge_into(tail_pool *t, int i, const double *add, long long n) {
    long long len = t->len[i], total = len + n;
    double *out = malloc(sizeof(double) * (size_t)(total ? total : 1)), *v = t->v[i];
    if (!out) return -1;
    long long a = 0, b = 0, o = 0;
    while (a < len && b < n) out[o++] = add[b] < v[a] ? add[b++] : v[a++];
    while (a < len) out[o++] = v[a++];
    while (b < n) out[o++] = add[b++];
    free(v);
    t->v[i] = out;
    t->len[i] = total;
    return 0;
}

/* This rank's message: the count for every node, then the values (x <= thr), node by node. */
static double *fresh_values(const tail_pool *t, const double *rows, long long stride,
                            long long held, long long fresh, long long *len) {
    int N = t->nnodes;
    double *msg = malloc(sizeof(double) * ((size_t)N + (size_t)N * (size_t)fresh));
    if (!msg) return NULL;
    double *out = msg + N;
    for (int i = 0; i < N; i++) {
        const double *x = rows + (size_t)i * (size_t)stride + (held - fresh);
        double thr = t->thr[i];
        long long c = 0;
        for (long long j = 0; j < fresh; j++) { /* branch-free: most values fail the test */
            out[c] = x[j];
            c += x[j] <= thr;
        }
        msg[i] = (double)c;
        out += c;
    }
    *len = out - msg;
    return msg;
}

/* Collective: every rank's message to rank 0, in rank order (*all on rank 0, total length). */
static int gather_messages(const double *msg, long long len, double **all, long long *total) {
    int np = gio_mpi_size(), me = gio_mpi_rank();
    int64_t *lens = malloc(sizeof(int64_t) * (size_t)np);
    int rc = !lens || gio_mpi_allgather_i64(msg ? len : -1, lens) ? -1 : 0;
    long long sum = 0;
    for (int q = 0; !rc && q < np; q++) {
        if (lens[q] < 0) rc = -1; /* some rank ran out of memory: every rank sees it */
        sum += lens[q];
    }
    free(lens);
    if (rc) return -1;
    *all = NULL;
    if (me == 0 && !(*all = malloc(sizeof(double) * (size_t)(sum ? sum : 1)))) rc = -1;
    if (gio_mpi_agree(rc, NULL)) return free(*all), *all = NULL, -1;
    if (gio_mpi_gather_doubles(msg, (size_t)len, *all)) return free(*all), *all = NULL, -1;
    *total = sum;
    return 0;
}

int tail_pool_add(tail_pool *t, const double *rows, long long stride, long long held,
                  long long fresh) {
    int N = t->nnodes, np = gio_mpi_size();
    long long len = 0, total = 0;
    double t0 = gio_mpi_wtime();
    double *msg = fresh_values(t, rows, stride, held, fresh, &len), *all = NULL;
    t->seconds += gio_mpi_wtime() - t0;
    int rc = gather_messages(msg, len, &all, &total);
    free(msg);
    if (rc || gio_mpi_rank() != 0) return rc;
    /* rank 0: node i's values from every rank, one after another, sorted, then merged */
    t0 = gio_mpi_wtime();
    long long *head = malloc(sizeof(long long) * 2 * (size_t)np), *at = head ? head + np : NULL;
    double *mine = malloc(sizeof(double) * (size_t)(total ? total : 1));
    uint64_t *tmp = malloc(2 * sizeof(uint64_t) * (size_t)(total ? total : 1));
    if (!head || !mine || !tmp) rc = -1;
    for (long long q = 0, off = 0; !rc && q < np; q++) { /* rank q: counts, then values */
        head[q] = off;
        at[q] = off + N;
        off += N;
        for (int i = 0; i < N; i++) off += (long long)all[head[q] + i];
    }
    for (int i = 0; !rc && i < N; i++) {
        long long n = 0;
        for (int q = 0; q < np; q++) {
            long long c = (long long)all[head[q] + i];
            memcpy(mine + n, all + at[q], sizeof(double) * (size_t)c);
            at[q] += c;
            n += c;
        }
        sort_values(mine, n, tmp, tmp + total);
        rc = merge_into(t, i, mine, n);
    }
    free(head);
    free(mine);
    free(tmp);
    free(all);
    t->seconds += gio_mpi_wtime() - t0;
    return rc ? -2 : 0;
}

int tail_pool_holds(const tail_pool *t, int i, long long need) {
    return !t->dropped[i] || t->len[i] >= need;
}

int tail_pool_refill(tail_pool *t, const char *lacking, const double *rows, long long stride,
                     long long held) {
    int me = gio_mpi_rank();
    for (int i = 0; i < t->nnodes; i++) {
        if (!lacking[i]) continue;
        t->refills++;
        double *all = NULL;
        long long total = 0;
        if (gather_messages(rows + (size_t)i * (size_t)stride, held, &all, &total)) return -1;
        int rc = 0;
        if (me == 0) {
            uint64_t *tmp = malloc(2 * sizeof(uint64_t) * (size_t)(total ? total : 1));
            if (tmp) {
                sort_values(all, total, tmp, tmp + total);
                free(t->v[i]);
                t->v[i] = all;
                t->len[i] = total;
                t->thr[i] = INFINITY;
                t->dropped[i] = 0;
                all = NULL;
            } else rc = -1;
            free(tmp);
        }
        free(all);
        if (gio_mpi_agree(rc, NULL)) return -1;
    }
    return 0;
}

void tail_pool_keep(tail_pool *t, int i, long long keep) {
    if (keep < 1 || t->len[i] <= keep) return;
    t->len[i] = keep;
    t->thr[i] = t->v[i][keep - 1];
    t->dropped[i] = 1;
}
