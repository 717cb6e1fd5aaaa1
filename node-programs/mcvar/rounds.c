/* rounds.c: the rounds' layout and the move to contiguous blocks (rounds.h). */
#include "rounds.h"

#include <stdlib.h>
#include <string.h>

#include "gio_mpi.h"

long long mcvar_checkpoint_next(long long done, long long base, long long cap) {
    long long step = base;
    if (done >= 4 * base) step = done / 4 / base * base;
    return done + step >= cap ? cap : done + step;
}

int mcvar_rounds_plan(mcvar_rounds *r, long long base, long long cap, int np, int me) {
    memset(r, 0, sizeof *r);
    r->np = np;
    r->me = me;
    for (long long done = 0; done < cap; done = mcvar_checkpoint_next(done, base, cap)) r->nrounds++;
    r->end = malloc(sizeof(long long) * (size_t)(r->nrounds ? r->nrounds : 1));
    if (!r->end) return -1;
    long long done = 0, mine = 0;
    for (int j = 0; j < r->nrounds; j++) {
        r->end[j] = done = mcvar_checkpoint_next(done, base, cap);
        long long from, to;
        mcvar_rounds_share(r, j, me, &from, &to);
        mine += to - from;
    }
    /* a run stopped at `done` holds at most ceil(done / np) scenarios per rank at the end */
    long long block = cap / np + (cap % np != 0);
    r->capacity = mine > block ? mine : block;
    if (r->capacity < 1) r->capacity = 1;
    return 0;
}

void mcvar_rounds_free(mcvar_rounds *r) {
    free(r->end);
    memset(r, 0, sizeof *r);
}

void mcvar_rounds_share(const mcvar_rounds *r, int j, int q, long long *from, long long *to) {
    long long a = j ? r->end[j - 1] : 0, len = r->end[j] - a;
    *from = a + len * q / r->np;
    *to = a + len * (q + 1) / r->np;
}

long long mcvar_rounds_held_below(const mcvar_rounds *r, int rounds, int q, long long x) {
    long long below = 0;
    for (int j = 0; j < rounds; j++) {
        long long from, to;
        mcvar_rounds_share(r, j, q, &from, &to);
        if (x > from) below += (x < to ? x : to) - from;
    }
    return below;
}

long long mcvar_rounds_held(const mcvar_rounds *r, int rounds, int q) {
    return mcvar_rounds_held_below(r, rounds, q, rounds ? r->end[rounds - 1] : 0);
}

/* Puts rank p's scenarios within [lo, hi), which arrive as one ascending run `chunk`, at
 * their places in row (row[0] is scenario lo). */
static void place(const mcvar_rounds *r, int p, const double *chunk, double *row, long long lo,
                  long long hi) {
    long long at = 0;
    for (int j = 0; j < r->valued; j++) {
        long long from, to;
        mcvar_rounds_share(r, j, p, &from, &to);
        long long x0 = from > lo ? from : lo, x1 = to < hi ? to : hi;
        if (x0 >= x1) continue;
        memcpy(row + (x0 - lo), chunk + at, sizeof(double) * (size_t)(x1 - x0));
        at += x1 - x0;
    }
}

/* The part of this rank's row that rank q holds at the end: [*off, *off + *len). */
static void chunk_for(const mcvar_rounds *r, long long done, int q, long long *off, long long *len) {
    long long lo = done * q / r->np, hi = done * (q + 1) / r->np;
    *off = mcvar_rounds_held_below(r, r->valued, r->me, lo);
    *len = mcvar_rounds_held_below(r, r->valued, r->me, hi) - *off;
}

/* Rank p's part for this rank, by length (both sides compute it). */
static long long incoming(const mcvar_rounds *r, long long done, int p) {
    long long lo = done * r->me / r->np, hi = done * (r->me + 1) / r->np;
    return mcvar_rounds_held_below(r, r->valued, p, hi) - mcvar_rounds_held_below(r, r->valued, p, lo);
}

/* One exchange between ranks p < q: p sends first, q answers. Every rank walks the pairs in
 * the same order, so blocking sends never wait on each other in a cycle. */
static int exchange(const mcvar_rounds *r, long long done, const double *src, double *in,
                    double *row, long long lo, long long hi, int other) {
    long long off, len, got = incoming(r, done, other);
    chunk_for(r, done, other, &off, &len);
    int rc = 0;
    for (int step = 0; step < 2; step++) {
        int sending = (step == 0) == (r->me < other);
        if (sending && len) rc |= gio_mpi_send(src + off, sizeof(double) * (size_t)len, other);
        if (!sending && got) {
            rc |= gio_mpi_recv(in, sizeof(double) * (size_t)got, other);
            place(r, other, in, row, lo, hi);
        }
    }
    return rc;
}

int mcvar_rounds_redistribute(const mcvar_rounds *r, double *pnl, int nnodes, long long *lo_out,
                              long long *hi_out) {
    int np = r->np, me = r->me;
    long long done = r->valued ? r->end[r->valued - 1] : 0;
    long long lo = done * me / np, hi = done * (me + 1) / np, ns = hi - lo, most = 1;
    for (int p = 0; p < np; p++)
        if (p != me && incoming(r, done, p) > most) most = incoming(r, done, p);
    double *row = malloc(sizeof(double) * (size_t)(ns ? ns : 1));
    double *in = malloc(sizeof(double) * (size_t)most);
    int rc = !row || !in ? -1 : 0;
    if ((rc = gio_mpi_agree(rc, NULL))) goto out;
    for (int i = 0; i < nnodes; i++) {
        const double *src = pnl + (size_t)i * (size_t)r->capacity;
        long long off, len;
        chunk_for(r, done, me, &off, &len);
        place(r, me, src + off, row, lo, hi);
        for (int p = 0; p < np; p++)
            for (int q = p + 1; q < np; q++)
                if (me == p || me == q) rc |= exchange(r, done, src, in, row, lo, hi, me == p ? q : p);
        /* row i's final place ends at (i + 1) ns <= (i + 1) capacity, where row i + 1 begins:
         * the rows still to move are never overwritten */
        memcpy(pnl + (size_t)i * (size_t)ns, row, sizeof(double) * (size_t)ns);
    }
    rc = gio_mpi_agree(rc ? -1 : 0, NULL);
out:
    free(row);
    free(in);
    *lo_out = lo;
    *hi_out = hi;
    return rc ? -1 : 0;
}
