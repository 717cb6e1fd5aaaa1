/* idmap: string id -> dense index (factor ids, dates), open addressing. Keys are copied. */
#ifndef MCVAR_IDMAP_H
#define MCVAR_IDMAP_H

#include <stddef.h>

typedef struct idmap {
    char **keys;   /* by index, in insertion order */
    int *slots;    /* hash slot -> index + 1, 0 = empty */
    size_t nslots;
    int n, cap;
} idmap;

void idmap_init(idmap *m);
void idmap_free(idmap *m);
int idmap_find(const idmap *m, const char *key);           /* index or -1 */
int idmap_add(idmap *m, const char *key, int *index);      /* 0 ok, 1 existed, -1 nomem */

#endif
