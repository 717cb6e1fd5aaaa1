/* positions.c: reads the positions file (README, "positions"). position_id is unique (it keys
 * the contribution rows). Each instrument's natural currency is the one its value comes out
 * in; a `currency` column that disagrees with it is refused, and every currency needs a
 * conversion path into the base currency through at most two fx factors. */
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
    for (int i = 0; i < b->nnodes; i++) free(b->node_path[i]);
    free(b->id); free(b->type); free(b->node); free(b->ccy); free(b->factor); free(b->rate);
    free(b->rate2); free(b->rate_w); free(b->frate); free(b->volf); free(b->quantity);
    free(b->strike); free(b->maturity); free(b->vol); free(b->node_path); free(b->parent);
    free(b->own); free(b->nchildren); free(b->cur);
    book_init(b);
}

typedef struct row {
    char *id, *node;
    instrument type;
    char ccy[4];
    int factor, rate, rate2, frate, volf;
    double rate_w, quantity, strike, maturity, vol;
} row;

typedef struct book_load {
    const market *m;
    const char *base;
    row *rows;
    int n, cap;
    idmap seen; /* position ids read so far */
    char top[256];
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

static int rate_factor(const market *m, const char *pid, const char *col, const char *id,
                       int *out, char *err) {
    if (factor(m, col, id, out, err)) return -1;
    if (!m->is_rate[*out])
        return snprintf(err, 256, "position '%s': %s '%s' is not a rate factor", pid, col, id), -1;
    return 0;
}

/* The zero rate of `curve` at `t`: linear between the bracketing tenor points (flat beyond
 * the ends); ties of tenor are refused at load. */
static int curve_point(const market *m, const char *pid, const char *curve, double t, int *ra,
                       int *rb, double *w, char *err) {
    int lo = -1, hi = -1;
    for (int f = 0; f < m->n; f++) {
        if (!m->curve[f] || strcmp(m->curve[f], curve) != 0) continue;
        for (int g = f + 1; g < m->n; g++)
            if (m->curve[g] && strcmp(m->curve[g], curve) == 0 && m->tenor[g] == m->tenor[f])
                return snprintf(err, 256, "curve '%s' has two points at tenor %g ('%s', '%s')",
                                curve, m->tenor[f], m->ids.keys[f], m->ids.keys[g]), -1;
        if (m->tenor[f] <= t && (lo < 0 || m->tenor[f] > m->tenor[lo])) lo = f;
        if (m->tenor[f] >= t && (hi < 0 || m->tenor[f] < m->tenor[hi])) hi = f;
    }
    if (lo < 0 && hi < 0)
        return snprintf(err, 256, "position '%s': unknown curve '%s'", pid, curve), -1;
    if (lo < 0) lo = hi;
    if (hi < 0) hi = lo;
    *ra = lo;
    *rb = hi;
    *w = hi == lo ? 0 : (t - m->tenor[lo]) / (m->tenor[hi] - m->tenor[lo]);
    for (int f = 0; f < m->n; f++)
        if (m->curve[f] && strcmp(m->curve[f], curve) == 0 &&
            strcmp(m->currency[f], m->currency[lo]) != 0)
            return snprintf(err, 256, "curve '%s' mixes currencies %s and %s", curve,
                            m->currency[lo], m->currency[f]), -1;
    return 0;
}

/* cols: position_id,node,instrument,factor_id,rate_factor_id,foreign_rate_factor_id,
 * vol_factor_id,curve,currency,quantity,strike,maturity_years,volatility */
static int position_row(void *ctx, char **c, char *err) {
    book_load *l = ctx;
    const market *m = l->m;
    row r = {.factor = -1, .rate = -1, .rate2 = -1, .frate = -1, .volf = -1};
    const char *pid = c[0], *kind = c[2];
    if (!pid[0]) return snprintf(err, 256, "empty position_id"), -1;
    int first, added = idmap_add(&l->seen, pid, &first);
    if (added < 0) return snprintf(err, 256, "out of memory"), -1;
    if (added == 1)
        return snprintf(err, 256, "duplicate position_id '%s' (position %d has it already)",
                        pid, first + 1), -1;
    /* node: non-empty names separated by '/', the first one shared by every position */
    const char *node = c[1];
    size_t toplen = strcspn(node, "/");
    if (strpbrk(node, ",\"\r\n"))
        return snprintf(err, 256, "position '%s': node '%s' holds a comma or quote", pid, node), -1;
    if (!node[0] || strstr(node, "//") || node[0] == '/' || node[strlen(node) - 1] == '/')
        return snprintf(err, 256, "position '%s': node '%s' is not a path like BANK/DESK", pid, node), -1;
    if (toplen >= sizeof l->top) return snprintf(err, 256, "position '%s': node name too long", pid), -1;
    if (!l->top[0]) memcpy(l->top, node, toplen);
    else if (strlen(l->top) != toplen || strncmp(l->top, node, toplen) != 0)
        return snprintf(err, 256, "position '%s': node '%s' is not under the top node '%s' of "
                        "the other positions", pid, node, l->top), -1;
    if (number("quantity", c[9], &r.quantity, err)) return -1;
    const char *natural = NULL; /* the currency the instrument's value comes out in */
    if (strcmp(kind, "spot") == 0) {
        r.type = INSTR_SPOT;
        if (factor(m, "factor_id", c[3], &r.factor, err)) return -1;
        if (m->is_rate[r.factor] || m->fkind[r.factor] == KIND_VOL)
            return snprintf(err, 256, "position '%s': spot on %s factor '%s'", pid, m->kind[r.factor], c[3]), -1;
        natural = m->currency[r.factor];
    } else if (strcmp(kind, "cash") == 0) {
        r.type = INSTR_CASH;
        if (!c[8][0]) return snprintf(err, 256, "position '%s': cash needs a currency", pid), -1;
        natural = c[8];
    } else if (strcmp(kind, "zcb") == 0) {
        r.type = INSTR_ZCB;
        if (number("maturity_years", c[11], &r.maturity, err)) return -1;
        if (r.maturity < 0) return snprintf(err, 256, "negative maturity_years %s", c[11]), -1;
        const char *rid = c[4][0] ? c[4] : c[3]; /* factor_id accepted as before */
        if (c[3][0] && c[4][0] && strcmp(c[3], c[4]) != 0)
            return snprintf(err, 256, "zcb factor_id '%s' differs from rate_factor_id '%s': a "
                            "zcb is discounted at one rate factor; give it in rate_factor_id "
                            "and leave factor_id empty or the same", c[3], c[4]), -1;
        if (rid[0] && c[7][0])
            return snprintf(err, 256, "position '%s': zcb names both a rate factor and curve '%s'; give one", pid, c[7]), -1;
        if (c[7][0]) {
            if (curve_point(m, pid, c[7], r.maturity, &r.rate, &r.rate2, &r.rate_w, err)) return -1;
        } else {
            if (!rid[0]) return snprintf(err, 256, "position '%s': zcb needs rate_factor_id or curve", pid), -1;
            if (factor(m, "rate_factor_id", rid, &r.rate, err)) return -1;
            if (!m->is_rate[r.rate])
                return snprintf(err, 256, "zcb needs a rate factor, '%s' is %s", rid, m->kind[r.rate]), -1;
            r.rate2 = r.rate;
        }
        r.factor = r.rate;
        natural = m->currency[r.rate];
    } else if (strcmp(kind, "fx-forward") == 0 || strcmp(kind, "call") == 0 ||
               strcmp(kind, "put") == 0) {
        r.type = kind[0] == 'f' ? INSTR_FX_FORWARD : kind[0] == 'c' ? INSTR_CALL : INSTR_PUT;
        if (factor(m, "factor_id", c[3], &r.factor, err)) return -1;
        int fx = m->fkind[r.factor] == KIND_FX;
        if (m->is_rate[r.factor] || m->fkind[r.factor] == KIND_VOL || (r.type == INSTR_FX_FORWARD && !fx))
            return snprintf(err, 256, "position '%s': %s on %s factor '%s'", pid, kind, m->kind[r.factor], c[3]), -1;
        if (rate_factor(m, pid, "rate_factor_id", c[4], &r.rate, err)) return -1;
        r.rate2 = r.rate;
        if (strcmp(m->currency[r.rate], m->currency[r.factor]) != 0)
            return snprintf(err, 256, "position '%s': rate_factor_id '%s' is a %s rate, the %s "
                            "is priced in %s", pid, c[4], m->currency[r.rate], kind, m->currency[r.factor]), -1;
        if (fx) {
            if (!c[5][0])
                return snprintf(err, 256, "position '%s': %s on fx factor '%s' needs "
                                "foreign_rate_factor_id (a %s rate)", pid, kind, c[3], m->fx_base[r.factor]), -1;
            if (rate_factor(m, pid, "foreign_rate_factor_id", c[5], &r.frate, err)) return -1;
            if (strcmp(m->currency[r.frate], m->fx_base[r.factor]) != 0)
                return snprintf(err, 256, "position '%s': foreign_rate_factor_id '%s' is a %s "
                                "rate, the pair's base currency is %s", pid, c[5], m->currency[r.frate], m->fx_base[r.factor]), -1;
        } else if (c[5][0]) {
            return snprintf(err, 256, "position '%s': foreign_rate_factor_id given for a %s on non-fx factor '%s'", pid, kind, c[3]), -1;
        }
        if (number("strike", c[10], &r.strike, err) || number("maturity_years", c[11], &r.maturity, err))
            return -1;
        if (r.strike <= 0) return snprintf(err, 256, "strike %s must be positive", c[10]), -1;
        if (r.type != INSTR_FX_FORWARD) {
            if (r.maturity <= 0) return snprintf(err, 256, "maturity_years %s must be positive", c[11]), -1;
            if (c[6][0]) {
                if (factor(m, "vol_factor_id", c[6], &r.volf, err)) return -1;
                if (m->fkind[r.volf] != KIND_VOL)
                    return snprintf(err, 256, "position '%s': vol_factor_id '%s' is not a vol factor", pid, c[6]), -1;
            } else {
                if (number("volatility", c[12], &r.vol, err)) return -1;
                if (r.vol < 0) return snprintf(err, 256, "negative volatility %s", c[12]), -1;
            }
        } else if (r.maturity < 0) {
            return snprintf(err, 256, "negative maturity_years %s", c[11]), -1;
        }
        natural = m->currency[r.factor];
    } else {
        return snprintf(err, 256, "instrument '%s' is not spot, cash, zcb, fx-forward, call or put", kind), -1;
    }
    if (c[8][0] && strcmp(c[8], natural) != 0)
        return snprintf(err, 256, "position '%s': currency %s disagrees with the instrument's "
                        "currency %s", pid, c[8], natural), -1;
    if (strlen(natural) != 3) return snprintf(err, 256, "position '%s': currency '%s' is not an ISO code", pid, natural), -1;
    memcpy(r.ccy, natural, 4);
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 256;
        row *g = realloc(l->rows, sizeof *g * (size_t)cap);
        if (!g) return snprintf(err, 256, "out of memory"), -1;
        l->rows = g;
        l->cap = cap;
    }
    r.id = strdup(pid);
    r.node = strdup(node);
    l->rows[l->n++] = r;
    if (!r.id || !r.node) return snprintf(err, 256, "out of memory"), -1;
    return 0;
}

static int by_node_then_id(const void *a, const void *b) {
    const row *x = a, *y = b;
    int c = strcmp(x->node, y->node);
    return c ? c : strcmp(x->id, y->id);
}

static int by_string(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every prefix of every position's path, sorted and unique. */
static int build_nodes(book *b, row *rows, int n) {
    int cap = 0, cnt = 0;
    char **all = NULL;
    for (int i = 0; i < n; i++)
        for (const char *p = rows[i].node;; p++)
            if (*p == '/' || *p == 0) {
                if (cnt == cap) {
                    cap = cap ? cap * 2 : 64;
                    char **g = realloc(all, sizeof *g * (size_t)cap);
                    if (!g) goto nomem;
                    all = g;
                }
                if (!(all[cnt] = strndup(rows[i].node, (size_t)(p - rows[i].node)))) goto nomem;
                cnt++;
                if (!*p) break;
            }
    qsort(all, (size_t)cnt, sizeof *all, by_string);
    int u = 0;
    for (int i = 0; i < cnt; i++) {
        if (u && strcmp(all[u - 1], all[i]) == 0) free(all[i]);
        else all[u++] = all[i];
    }
    b->nnodes = u;
    b->node_path = all;
    b->parent = malloc(sizeof(int) * (size_t)u);
    b->own = calloc((size_t)u, sizeof(int));
    b->nchildren = calloc((size_t)u, sizeof(int));
    if (!b->parent || !b->own || !b->nchildren) return -1;
    for (int i = 0; i < u; i++) {
        const char *slash = strrchr(all[i], '/');
        b->parent[i] = -1;
        if (!slash) continue;
        size_t len = (size_t)(slash - all[i]);
        for (int j = i - 1; j >= 0; j--) /* the parent sorts before, and is a prefix */
            if (strlen(all[j]) == len && strncmp(all[j], all[i], len) == 0) {
                b->parent[i] = j;
                b->nchildren[j]++;
                break;
            }
    }
    return 0;
nomem:
    for (int i = 0; i < cnt; i++) free(all[i]);
    free(all);
    return -1;
}

static int node_index(const book *b, const char *path) {
    int lo = 0, hi = b->nnodes - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(b->node_path[mid], path);
        if (c == 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* The conversion of currency `code` into base: directly or inverted through one fx factor,
 * else through one intermediate currency; fx factors in canonical order, the first path
 * found wins (shortest, ties by factor id). */
static int find_path(const market *m, const char *base, const char *code, currency_path *cp) {
    memset(cp, 0, sizeof *cp);
    memcpy(cp->code, code, 3);
    if (strcmp(code, base) == 0) return 0;
    /* hop from currency a to b through fx factor f: sign +1 when a is the pair's base */
    for (int f = 0; f < m->n; f++) {
        if (m->fkind[f] != KIND_FX) continue;
        if (strcmp(m->fx_base[f], code) == 0 && strcmp(m->currency[f], base) == 0) {
            cp->hops = 1; cp->factor[0] = f; cp->sign[0] = 1; return 0;
        }
        if (strcmp(m->currency[f], code) == 0 && strcmp(m->fx_base[f], base) == 0) {
            cp->hops = 1; cp->factor[0] = f; cp->sign[0] = -1; return 0;
        }
    }
    for (int f = 0; f < m->n; f++) {
        if (m->fkind[f] != KIND_FX) continue;
        const char *via;
        int s1;
        if (strcmp(m->fx_base[f], code) == 0) { via = m->currency[f]; s1 = 1; }
        else if (strcmp(m->currency[f], code) == 0) { via = m->fx_base[f]; s1 = -1; }
        else continue;
        for (int g = 0; g < m->n; g++) {
            if (m->fkind[g] != KIND_FX || g == f) continue;
            int s2 = strcmp(m->fx_base[g], via) == 0 && strcmp(m->currency[g], base) == 0 ? 1
                   : strcmp(m->currency[g], via) == 0 && strcmp(m->fx_base[g], base) == 0 ? -1 : 0;
            if (!s2) continue;
            cp->hops = 2;
            cp->factor[0] = f; cp->sign[0] = s1;
            cp->factor[1] = g; cp->sign[1] = s2;
            return 0;
        }
    }
    return -1;
}

static int build_book(book *b, const market *m, const char *base, row *rows, int n,
                      const char *path, char *err) {
    size_t sz = (size_t)n;
#define ALLOC(p) ((p) = malloc(sizeof *(p) * sz))
    if (!ALLOC(b->id) || !ALLOC(b->type) || !ALLOC(b->node) || !ALLOC(b->ccy) ||
        !ALLOC(b->factor) || !ALLOC(b->rate) || !ALLOC(b->rate2) || !ALLOC(b->rate_w) ||
        !ALLOC(b->frate) || !ALLOC(b->volf) || !ALLOC(b->quantity) || !ALLOC(b->strike) ||
        !ALLOC(b->maturity) || !ALLOC(b->vol) || build_nodes(b, rows, n))
        return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
#undef ALLOC
    b->cur = calloc(sz + 1, sizeof *b->cur);
    if (!b->cur) return snprintf(err, MCVAR_ERRLEN, "out of memory"), -1;
    memcpy(b->cur[0].code, base, 3);
    b->nccy = 1;
    for (int i = 0; i < n; i++) {
        row *r = &rows[i];
        int c = 0;
        while (c < b->nccy && strcmp(b->cur[c].code, r->ccy) != 0) c++;
        if (c == b->nccy) {
            if (find_path(m, base, r->ccy, &b->cur[c]))
                return snprintf(err, MCVAR_ERRLEN, "%s: position '%s': no conversion from %s "
                                "into the base currency %s (no fx factor, direct or through "
                                "one other currency)", path, r->id, r->ccy, base), -1;
            b->nccy++;
        }
        b->id[i] = r->id;
        r->id = NULL;
        b->type[i] = r->type;
        b->node[i] = node_index(b, r->node);
        b->own[b->node[i]]++;
        b->ccy[i] = c;
        b->factor[i] = r->factor;
        b->rate[i] = r->rate;
        b->rate2[i] = r->rate2;
        b->rate_w[i] = r->rate_w;
        b->frate[i] = r->frate;
        b->volf[i] = r->volf;
        b->quantity[i] = r->quantity;
        b->strike[i] = r->strike;
        b->maturity[i] = r->maturity;
        b->vol[i] = r->vol;
        b->n = i + 1;
    }
    return 0;
}

int book_read(book *b, const market *m, const char *base_currency, const char *path,
              const gio_read_options *o, char *err) {
    static const char *const cols[] = {"position_id", "node", "instrument", "factor_id",
                                       "rate_factor_id", "?foreign_rate_factor_id",
                                       "?vol_factor_id", "?curve", "?currency", "quantity",
                                       "?strike", "?maturity_years", "?volatility"};
    book_load l = {.m = m, .base = base_currency};
    idmap_init(&l.seen);
    int rc = inputs_read_table(path, o, cols, 13, position_row, &l, err);
    idmap_free(&l.seen);
    if (!rc && l.n == 0) rc = (snprintf(err, MCVAR_ERRLEN, "%s: no positions", path), -1);
    if (!rc) {
        qsort(l.rows, (size_t)l.n, sizeof *l.rows, by_node_then_id);
        rc = build_book(b, m, base_currency, l.rows, l.n, path, err);
    }
    for (int i = 0; i < l.n; i++) {
        free(l.rows[i].id);
        free(l.rows[i].node);
    }
    free(l.rows);
    return rc;
}

void book_roll_up(const book *b, double *node_pnl, int stride, int count) {
    for (int i = b->nnodes - 1; i > 0; i--) {
        int p = b->parent[i];
        if (p < 0) continue;
        const double *src = node_pnl + (size_t)i * stride;
        double *dst = node_pnl + (size_t)p * stride;
        for (int s = 0; s < count; s++) dst[s] += src[s];
    }
}

int book_node_depth(const book *b, int node) {
    int d = 0;
    while ((node = b->parent[node]) >= 0) d++;
    return d;
}
