/* gio-cat: prints a file's decoded bytes through the gio library.
 *
 * Without --read-mode it reads with plain POSIX calls and needs no MPI (the staging
 * gateway's cross-check runs it on its blocked-gzip test vectors). With --read-mode it
 * must run under mpirun and reads collectively; --each-rank-to lets tests compare what
 * every rank received, and --stats prints the counters the benchmark reports. --follow reads
 * a file still being written, or a FIFO, as it arrives (gio_follow_open). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gio.h"
#include "gio_mpi.h"

typedef struct cat_options {
    const char *path, *each_rank_prefix;
    gio_read_options read;
    int collective, lines, stats, discard;
    double follow_s; /* --follow: the no-progress timeout; 0 = a complete file */
} cat_options;

static void usage(FILE *f) {
    fputs("usage: gio-cat [options] FILE\n"
          "Prints FILE's decoded bytes (plain or blocked gzip, found by magic bytes).\n"
          "  --read-mode naive|root|mpiio|two-phase  collective read (run under mpirun)\n"
          "  --access-ranks K       two-phase access ranks (default: nodes, at least 2)\n"
          "  --phase2 auto|mbc|atv  two-phase exchange (default auto)\n"
          "  --buffer-size BYTES    user-space buffer and round size (default 1048576)\n"
          "  --lines                go through the line reader, one line + newline each\n"
          "  --each-rank-to PREFIX  every rank writes its bytes to PREFIX.RANK\n"
          "  --discard              write nothing (for timing)\n"
          "  --stats                print counters as name: value lines on stderr\n"
          "  --follow SECONDS       FILE is still being written (blocked gzip, read to its\n"
          "                         end-of-file block) or a FIFO: print as it arrives; fail\n"
          "                         after SECONDS without a new byte (no --read-mode)\n",
          f);
}

static int parse(int argc, char **argv, cat_options *o) {
    gio_read_options_default(&o->read);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) { usage(stdout); exit(0); }
        else if (strcmp(a, "--lines") == 0) o->lines = 1;
        else if (strcmp(a, "--stats") == 0) o->stats = 1;
        else if (strcmp(a, "--discard") == 0) o->discard = 1;
        else if (a[0] == '-' && a[1] == '-' && !v) return -1;
        else if (strcmp(a, "--read-mode") == 0) {
            if (gio_parse_read_mode(v, &o->read.mode)) return -1;
            o->collective = 1; i++;
        } else if (strcmp(a, "--access-ranks") == 0) { o->read.access_ranks = atoi(v); i++; }
        else if (strcmp(a, "--phase2") == 0) { if (gio_parse_phase2(v, &o->read.phase2)) return -1; i++; }
        else if (strcmp(a, "--buffer-size") == 0) { o->read.buffer_size = strtoull(v, NULL, 10); i++; }
        else if (strcmp(a, "--each-rank-to") == 0) { o->each_rank_prefix = v; i++; }
        else if (strcmp(a, "--follow") == 0) {
            o->follow_s = strtod(v, NULL);
            if (!(o->follow_s > 0)) return -1;
            i++;
        }
        else if (a[0] == '-' && a[1] == '-') return -1;
        else o->path = a;
    }
    return o->path && !(o->follow_s > 0 && o->collective) ? 0 : -1;
}

/* follow: flush each piece, so a reader downstream gets it as it arrives */
static int copy_out(gio_reader *r, FILE *out, int lines, int follow, char *err) {
    static char buf[1 << 20];
    if (lines) {
        char *line;
        size_t len;
        int rc;
        while ((rc = gio_reader_line(r, &line, &len, err)) == GIO_OK)
            if (out && (fwrite(line, 1, len, out) != len || fputc('\n', out) == EOF))
                return GIO_EIO;
        return rc == GIO_EOF ? GIO_OK : rc;
    }
    ssize_t n;
    while ((n = gio_reader_read(r, buf, sizeof buf, err)) > 0)
        if (out && (fwrite(buf, 1, (size_t)n, out) != (size_t)n || (follow && fflush(out) != 0)))
            return GIO_EIO;
    return (int)n;
}

static void print_stats(const gio_counters *c, double wall, double cpu, int collective) {
    uint64_t fs = c->fs_bytes, mpi = c->mpi_bytes;
    double rd = c->read_s, ex = c->exchange_s, inf = c->inflate_s;
    if (collective) {
        fs = gio_mpi_sum_u64(fs);
        mpi = gio_mpi_sum_u64(mpi);
        wall = gio_mpi_max_double(wall);
        cpu = gio_mpi_max_double(cpu);
        rd = gio_mpi_max_double(rd);
        ex = gio_mpi_max_double(ex);
        inf = gio_mpi_max_double(inf);
        if (gio_mpi_rank() != 0) return;
    }
    fprintf(stderr, "cpu_s_max: %.4f\n", cpu);
    fprintf(stderr, "wall_s: %.4f\nfs_bytes_total: %llu\nmpi_bytes_total: %llu\n"
            "read_s_max: %.4f\nexchange_s_max: %.4f\ninflate_s_max: %.4f\n",
            wall, (unsigned long long)fs, (unsigned long long)mpi, rd, ex, inf);
}

int main(int argc, char **argv) {
    cat_options o = {0};
    char err[GIO_ERRLEN] = "";
    if (parse(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    if (o.collective && gio_mpi_init(&argc, &argv)) return 1;
    int rank = o.collective ? gio_mpi_rank() : 0, rc = GIO_OK;
    FILE *out = NULL;
    gio_reader *r = NULL;
    if (o.each_rank_prefix) {
        char name[4096];
        snprintf(name, sizeof name, "%s.%d", o.each_rank_prefix, rank);
        if (!(out = fopen(name, "wb"))) { snprintf(err, sizeof err, "cannot create the output file"); rc = GIO_EIO; }
    } else if (!o.discard && rank == 0) {
        out = stdout;
    }
    if (o.discard) out = NULL;
    double t0 = gio_now(), c0 = gio_cpu_now();
    if (!rc && o.follow_s > 0) {
        gio_follow_options fo;
        gio_follow_options_default(&fo);
        fo.timeout_s = o.follow_s;
        fo.buffer_size = o.read.buffer_size;
        rc = gio_follow_open(&r, o.path, &fo, err);
    } else if (!rc) {
        rc = gio_reader_open(&r, o.path, o.collective ? &o.read : NULL, err);
    }
    if (!rc) rc = copy_out(r, out, o.lines, o.follow_s > 0, err);
    double wall = gio_now() - t0, cpu = gio_cpu_now() - c0;
    if (o.collective) {
        int first = -1, st = gio_mpi_agree(rc, &first);
        if (st && rank == first) fprintf(stderr, "%s: %s\n", o.path, err);
        if (!st && o.stats) print_stats(gio_reader_counters(r), wall, cpu, 1);
        rc = st;
    } else {
        if (rc && o.follow_s > 0) fprintf(stderr, "gio-cat: %s\n", err); /* names the file */
        else if (rc) fprintf(stderr, "%s: %s\n", o.path, err);
        else if (o.stats) print_stats(gio_reader_counters(r), wall, cpu, 0);
    }
    gio_reader_close(r);
    if (out && out != stdout && fclose(out) != 0) rc = GIO_EIO;
    if (out == stdout && fflush(stdout) != 0) rc = GIO_EIO;
    if (o.collective) gio_mpi_finalize();
    return rc ? 1 : 0;
}
