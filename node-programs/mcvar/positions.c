/* positions.c: reads the positions file. position_id is unique (it keys the contribution
 * rows, and a duplicate would break the result table's primary key at stage-out). Rules per
 * instrument:
 *   spot: quantity units of factor_id (not a rate factor); rate_factor_id ignored;
 *   zcb:  pays quantity at maturity_years, discounted at rate_factor_id (or factor_id when
 *         rate_factor_id is empty), which must be a rate factor; when both are given they
 *         must name the same factor, since a zcb has only one;
 *   call/put: European on factor_id (not a rate), discounted at rate_factor_id, with
 *         strike > 0, maturity_years > 0 and volatility >= 0. */
#include "positions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "idmap.h"
#include "inputs.h"

void book_init(book *b) { memset(b, 0, sizeof *b); }

void book_free(book *b) {
    for (int i = 0; i < b->n; i++) free(b->id[i]);
    free(b->id); free(b->type); free(b->factor); free(b->rate);
    free(b->quantity); free(b->strike); free(b->maturity); free(b->vol);
    book_init(b);
}

#define GROW(p, cap) do { void *q_ = realloc((p), sizeof *(p) * (size_t)(cap)); if (!q_) return -1; (p) = q_; } while (0)

static int grow(book *b) {
    int cap = b->cap ? b->cap * 2 : 256;
    GROW(b->id, cap); GROW(b->type, cap); GROW(b->factor, cap); GROW(b->rate, cap);
    GROW(b->quantity, cap); GROW(b->strike, cap); GROW(b->maturity, cap); GROW(b->vol, cap);
    b->cap = cap;
    return 0;
}

typedef struct book_load {
    book *b;
    const market *m;
    idmap seen; /* position ids read so far */
} book_load;

static int number(const char *name, const char *s, double *out, char *err) {
    if (!s[0]) return snprintf(err, 256, "%s is empty", name), -1;
    if (csv_number(s, out)) return snprintf(err, 256, "%s '%s' is not a number", name, s), -1;
    return 0;
}

static int factor(const market *m, const char *col, const char *id, int *out, char *err) {
    if (!id[0]) return snprintf(err, 256, "%s is empty", col), -1;
    *out = idmap_find(&m->ids, id);
    if (*out < 0) return snprintf(err, 256, "unknown factor '%s' in %s", id, col), -1;
    return 0;
}

/* cols: position_id,instrument,factor_id,rate_factor_id,quantity,strike,maturity_years,
 * volatility */
static int position_row(void *ctx, char **c, char *err) {
    book_load *l = ctx;
    book *b = l->b;
    const market *m = l->m;
    if (b->n == b->cap && grow(b)) return snprintf(err, 256, "out of memory"), -1;
    int i = b->n, f = -1, r = -1;
    double q = 0, k = 0, t = 0, v = 0;
    if (!c[0][0]) return snprintf(err, 256, "empty position_id"), -1;
    int first, added = idmap_add(&l->seen, c[0], &first);
    if (added < 0) return snprintf(err, 256, "out of memory"), -1;
    if (added == 1)
        return snprintf(err, 256, "duplicate position_id '%s' (position %d has it already)",
                        c[0], first + 1), -1;
    if (number("quantity", c[4], &q, err)) return -1;
    if (strcmp(c[1], "spot") == 0) {
        b->type[i] = INSTR_SPOT;
        if (factor(m, "factor_id", c[2], &f, err)) return -1;
        if (m->is_rate[f]) return snprintf(err, 256, "spot on rate factor '%s'", c[2]), -1;
    } else if (strcmp(c[1], "zcb") == 0) {
        b->type[i] = INSTR_ZCB;
        if (c[2][0] && factor(m, "factor_id", c[2], &f, err)) return -1;
        if (c[2][0] && c[3][0] && strcmp(c[2], c[3]) != 0)
            return snprintf(err, 256, "zcb factor_id '%s' differs from rate_factor_id '%s': a "
                            "zcb is discounted at one rate factor; give it in rate_factor_id "
                            "and leave factor_id empty or the same", c[2], c[3]), -1;
        if (factor(m, c[3][0] ? "rate_factor_id" : "factor_id", c[3][0] ? c[3] : c[2], &r, err))
            return -1;
        if (!m->is_rate[r]) return snprintf(err, 256, "zcb needs a rate factor, '%s' is %s", m->ids.keys[r], m->kind[r]), -1;
        if (number("maturity_years", c[6], &t, err)) return -1;
        if (t < 0) return snprintf(err, 256, "negative maturity_years %s", c[6]), -1;
        f = r;
    } else if (strcmp(c[1], "call") == 0 || strcmp(c[1], "put") == 0) {
        b->type[i] = c[1][0] == 'c' ? INSTR_CALL : INSTR_PUT;
        if (factor(m, "factor_id", c[2], &f, err) || factor(m, "rate_factor_id", c[3], &r, err))
            return -1;
        if (m->is_rate[f]) return snprintf(err, 256, "option on rate factor '%s'", c[2]), -1;
        if (!m->is_rate[r]) return snprintf(err, 256, "rate_factor_id '%s' is not a rate factor", c[3]), -1;
        if (number("strike", c[5], &k, err) || number("maturity_years", c[6], &t, err) ||
            number("volatility", c[7], &v, err))
            return -1;
        if (k <= 0) return snprintf(err, 256, "strike %s must be positive", c[5]), -1;
        if (t <= 0) return snprintf(err, 256, "maturity_years %s must be positive", c[6]), -1;
        if (v < 0) return snprintf(err, 256, "negative volatility %s", c[7]), -1;
    } else {
        return snprintf(err, 256, "instrument '%s' is not spot, zcb, call or put", c[1]), -1;
    }
    if (!(b->id[i] = strdup(c[0]))) return snprintf(err, 256, "out of memory"), -1;
    b->factor[i] = f;
    b->rate[i] = r;
    b->quantity[i] = q;
    b->strike[i] = k;
    b->maturity[i] = t;
    b->vol[i] = v;
    b->n++;
    return 0;
}

int book_read(book *b, const market *m, const char *path, const gio_read_options *o,
              char *err) {
    static const char *const cols[] = {"position_id", "instrument", "factor_id",
                                       "rate_factor_id", "quantity", "strike",
                                       "maturity_years", "volatility"};
    book_load l = {b, m, {0}};
    idmap_init(&l.seen);
    int rc = inputs_read_table(path, o, cols, 8, position_row, &l, err);
    idmap_free(&l.seen);
    if (rc) return -1;
    if (b->n == 0) return snprintf(err, MCVAR_ERRLEN, "%s: no positions", path), -1;
    return 0;
}
