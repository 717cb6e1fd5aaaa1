/* csv.c: in-place CSV field splitting and strict number parsing for mcvar's inputs. */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int csv_split(char *line, size_t len, char **fields, int max_fields, char *err) {
    if (len > 0 && line[len - 1] == '\r') len--;
    line[len] = '\0'; /* the reader's buffer always has the '\n' slot or spare room */
    int n = 0;
    char *p = line, *end = line + len;
    for (;;) {
        if (n == max_fields) {
            snprintf(err, 256, "more than %d fields", max_fields);
            return -1;
        }
        if (p < end && *p == '"') {
            char *w = p, *r = p + 1;
            fields[n++] = w;
            for (;;) {
                if (r >= end) {
                    snprintf(err, 256, "unterminated quoted field");
                    return -1;
                }
                if (*r == '"' && r + 1 < end && r[1] == '"') { *w++ = '"'; r += 2; }
                else if (*r == '"') { r++; break; }
                else *w++ = *r++;
            }
            if (r < end && *r != ',') {
                snprintf(err, 256, "text after a closing quote");
                return -1;
            }
            *w = '\0';
            if (r == end) return n;
            p = r + 1;
        } else {
            fields[n++] = p;
            while (p < end && *p != ',') p++;
            if (p == end) return n;
            *p++ = '\0';
        }
    }
}

int csv_number(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}
