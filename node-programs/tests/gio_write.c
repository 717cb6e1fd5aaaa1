/* gio-write IN OUT BLOCK_SIZE: compresses IN to blocked gzip OUT with gio's writer (test
 * helper; mcvar and mcvar-gen use the same writer for their outputs). */
#include <stdio.h>
#include <stdlib.h>

#include "gio.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: gio-write IN OUT BLOCK_SIZE\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    gio_writer *w;
    char err[GIO_ERRLEN], buf[1 << 16];
    if (!in || gio_writer_open(&w, argv[2], 1, strtoull(argv[3], NULL, 10), err)) {
        fprintf(stderr, "gio-write: cannot open %s or %s\n", argv[1], argv[2]);
        return 1;
    }
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0) rc = gio_writer_write(w, buf, n, err);
    fclose(in);
    if (gio_writer_close(w, err) || rc) {
        fprintf(stderr, "gio-write: %s\n", err);
        return 1;
    }
    return 0;
}
