/* libFuzzer target: mcvar's parameters file (params_read) and the table reader under it
 * (inputs_read_table: header lookup by column name, gio line reading, CSV splitting), through
 * their public entry points, reading a file as mcvar does.
 *
 * A file accepted must leave every parameter inside its documented limits; a file refused must
 * say where ("file:line: what"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"
#include "params.h"

#define FUZZ_CHECK(c)                                                                           \
    do {                                                                                        \
        if (!(c)) {                                                                             \
            fprintf(stderr, "fuzz_mcvar_params: property failed at line %d: %s\n", __LINE__, #c); \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

static int count_row(void *ctx, char **cols, char *err) {
    (void)err;
    (void)strlen(cols[0]);
    (void)strlen(cols[1]);
    ++*(long *)ctx;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/gantry-fuzz-params-%d.csv", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();

    char err[MCVAR_ERRLEN] = "";
    params p;
    params_default(&p);
    if (params_read(&p, path, NULL, err) == 0) {
        FUZZ_CHECK(p.scenarios >= 1 && p.scenarios <= 1000000000LL);
        FUZZ_CHECK(p.horizon_days >= 1 && p.horizon_days <= 2520);
        FUZZ_CHECK(p.nconfidence >= 1 && p.nconfidence <= PARAMS_MAX_CONF);
        for (int i = 0; i < p.nconfidence; i++)
            FUZZ_CHECK(p.confidence[i] > 0 && p.confidence[i] < 1);
        FUZZ_CHECK(p.dof > 2 && p.dof <= 1e6);
        FUZZ_CHECK(p.histogram_bins >= 1 && p.histogram_bins <= 100000);
    } else {
        FUZZ_CHECK(err[0] != '\0');
    }

    /* The same file as a two-column table with other names: every row reaches the callback. */
    static const char *const cols[] = {"id", "value"};
    long rows = 0;
    err[0] = '\0';
    if (inputs_read_table(path, NULL, cols, 2, count_row, &rows, err) != 0)
        FUZZ_CHECK(err[0] != '\0');
    return 0;
}
