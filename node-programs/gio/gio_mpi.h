/* gio_mpi: the only compilation unit that calls MPI (as CoMD's parallel.c). The collective
 * reader and mcvar's reductions go through these wrappers, so everything else is plain C.
 * Sizes are size_t; wrappers split transfers larger than INT_MAX. */
#ifndef GIO_MPI_H
#define GIO_MPI_H

#include <stddef.h>
#include <stdint.h>

int gio_mpi_init(int *argc, char ***argv);
void gio_mpi_finalize(void);
int gio_mpi_rank(void);
int gio_mpi_size(void);
void gio_mpi_barrier(void);
double gio_mpi_wtime(void);

/* Failure agreement: every rank passes its status (0 = ok, else a GIO_E or exit code);
 * returns the status of the lowest failing rank (0 if none) and, in *first_rank, that
 * rank (or -1), so exactly one rank prints the message. */
int gio_mpi_agree(int status, int *first_rank);

int gio_mpi_bcast(void *buf, size_t len, int root);
/* A broadcast (len < 1 GiB) whose receivers sleep between tests (0.1 ms doubling to 10 ms)
 * instead of spinning inside MPI: for a root that may wait long, e.g. for a streamed input's
 * producer, whose core spinning ranks on the same node would take. */
int gio_mpi_bcast_idle(void *buf, size_t len, int root);
/* ATV: rank `sources[i]` sends its section (send/len on that rank) to every rank, which
 * receives it at recv + offsets[i]. One MPI_Alltoallv. */
int gio_mpi_alltoall_sections(const void *send, size_t send_len, void *recv,
                              const int *sources, const size_t *offsets,
                              const size_t *lens, int nsources);
int64_t gio_mpi_max_i64(int64_t v);
uint64_t gio_mpi_sum_u64(uint64_t v);
double gio_mpi_max_double(double v);
double gio_mpi_min_double(double v);
/* In place, element-wise over every rank: sums of n counts; minima and maxima of n doubles. */
int gio_mpi_sum_i64s(int64_t *v, size_t n);
int gio_mpi_min_doubles(double *v, size_t n);
int gio_mpi_max_doubles(double *v, size_t n);
/* all[i] = rank i's v (all has gio_mpi_size() entries). */
int gio_mpi_allgather_i64(int64_t v, int64_t *all);
/* every rank's len bytes at all + i * len, in rank order */
int gio_mpi_allgather_bytes(const void *mine, size_t len, void *all);
/* Point to point, in pieces below INT_MAX bytes (a chain of ranks, a gather of unequal parts). */
int gio_mpi_send(const void *buf, size_t len, int to);
int gio_mpi_recv(void *buf, size_t len, int from);
/* Gathers each rank's `n` doubles to rank 0 in rank order (out only used on rank 0). */
int gio_mpi_gather_doubles(const double *local, size_t n, double *out);

/* Node layout: node index (0..nnodes-1, ordered by lowest world rank on the node) and
 * rank within the node, for every world rank (arrays of size gio_mpi_size()). */
int gio_mpi_node_layout(int *node_of_rank, int *local_rank_of_rank, int *nnodes);

/* MPI-IO: opened by all ranks, read by all ranks in sequence (generic MPI_File_read_all);
 * offset must be where the previous read ended. */
typedef struct gio_mpi_file gio_mpi_file;
int gio_mpi_file_open(gio_mpi_file **f, const char *path, uint64_t *size);
int gio_mpi_file_read_all(gio_mpi_file *f, uint64_t offset, void *buf, size_t len);
void gio_mpi_file_close(gio_mpi_file *f);

#endif
