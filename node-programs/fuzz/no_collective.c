/* The fuzz build is MPI-free (clang with libFuzzer, no mpicc): gio_reader.c refers to the
 * collective source, which only a reader opened with read options (an MPI job) reaches, and
 * mcvar's inputs.c to the collective follow reader and the rank (--follow-inputs under MPI). The
 * fuzz targets always read with plain POSIX calls or from memory, so this is never called; it
 * fails loudly should that ever change. */
#include <stdlib.h>

#include "gio_internal.h"

int gio_collective_source_open(gio_source *src, const char *path, const gio_read_options *o,
                               char *err) {
    (void)src;
    (void)path;
    (void)o;
    (void)err;
    abort();
}

int gio_follow_open_collective(gio_reader **r, const char *path, const gio_follow_options *o,
                               char *err) {
    (void)r;
    (void)path;
    (void)o;
    (void)err;
    abort();
}

int gio_mpi_rank(void) { abort(); }
