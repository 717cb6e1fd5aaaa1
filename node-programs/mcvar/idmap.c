/* idmap.c: string -> index map used to resolve factor ids and pivot history by date. */
#include "idmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

void idmap_init(idmap *m) { memset(m, 0, sizeof *m); }

void idmap_free(idmap *m) {
    for (int i = 0; i < m->n; i++) free(m->keys[i]);
    free(m->keys);
    free(m->slots);
    idmap_init(m);
}

static size_t probe(const idmap *m, const char *key) {
    size_t i = hash(key) & (m->nslots - 1);
    while (m->slots[i] && strcmp(m->keys[m->slots[i] - 1], key) != 0)
        i = (i + 1) & (m->nslots - 1);
    return i;
}

int idmap_find(const idmap *m, const char *key) {
    if (!m->nslots) return -1;
    size_t i = probe(m, key);
    return m->slots[i] ? m->slots[i] - 1 : -1;
}

static int grow(idmap *m) {
    size_t ns = m->nslots ? m->nslots * 2 : 64;
    int *slots = calloc(ns, sizeof *slots);
    if (!slots) return -1;
    free(m->slots);
    m->slots = slots;
    m->nslots = ns;
    for (int k = 0; k < m->n; k++) m->slots[probe(m, m->keys[k])] = k + 1;
    return 0;
}

int idmap_add(idmap *m, const char *key, int *index) {
    int found = idmap_find(m, key);
    if (found >= 0) {
        *index = found;
        return 1;
    }
    if ((size_t)(m->n + 1) * 2 > m->nslots && grow(m)) return -1;
    if (m->n == m->cap) {
        int cap = m->cap ? m->cap * 2 : 64;
        char **keys = realloc(m->keys, sizeof *keys * (size_t)cap);
        if (!keys) return -1;
        m->keys = keys;
        m->cap = cap;
    }
    char *copy = strdup(key);
    if (!copy) return -1;
    m->keys[m->n] = copy;
    m->slots[probe(m, key)] = m->n + 1;
    *index = m->n++;
    return 0;
}
