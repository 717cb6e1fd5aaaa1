/* libFuzzer target: mcvar's CSV field splitter and strict number parser (mcvar/csv.c).
 *
 * Byte 0 chooses the field limit; the rest is one line, as gio hands it out (with its '\n' slot
 * writable). Every field must lie inside the line, NUL-terminated, in order; a failure must say
 * why; a number accepted must be finite. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

#define FUZZ_CHECK(c)                                                                  \
    do {                                                                               \
        if (!(c)) {                                                                    \
            fprintf(stderr, "fuzz_csv: property failed at line %d: %s\n", __LINE__, #c); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int max_fields = 1 + data[0] % CSV_MAX_FIELDS;
    size_t len = size - 1;
    char *line = malloc(len + 1); /* exactly the line and its '\n' slot: ASan sees any overrun */
    if (!line) return 0;
    memcpy(line, data + 1, len);
    char *fields[CSV_MAX_FIELDS];
    char err[256] = "";
    int n = csv_split(line, len, fields, max_fields, err);
    if (n < 0) {
        FUZZ_CHECK(n == -1 && err[0] != '\0');
    } else {
        FUZZ_CHECK(n >= 1 && n <= max_fields);
        for (int i = 0; i < n; i++) {
            FUZZ_CHECK(fields[i] >= line && fields[i] <= line + len);
            FUZZ_CHECK(i == 0 || fields[i] > fields[i - 1]);
            size_t flen = strlen(fields[i]); /* within the buffer, or ASan stops here */
            FUZZ_CHECK(fields[i] + flen <= line + len);
            double v;
            if (csv_number(fields[i], &v) == 0) FUZZ_CHECK(isfinite(v));
        }
    }
    free(line);
    return 0;
}
