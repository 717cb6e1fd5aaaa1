/* pnl_writer: node_pnl.csv.gz written by every rank at once, byte-identical to one writer's
 * output (gio_writer: blocked gzip, a member every block_size bytes of text, bgzip's empty
 * member last) whatever the number of ranks:
 *  1. each rank formats its own scenarios' rows (rank 0 the header first) into a part file
 *     beside the output and learns every rank's text length (so where its text starts);
 *  2. the blocks start at multiples of block_size of the whole text: a rank compresses the
 *     blocks that start in its text, completing the last one from the next ranks' first
 *     bytes (every rank's first block_size bytes are exchanged), into a second part file;
 *  3. every rank copies its members into the output at the sum of the earlier ranks'
 *     compressed sizes; the last rank appends the empty member.
 * Collective; the output directory must be shared by the ranks (as the inputs are). */
#ifndef MCVAR_PNL_WRITER_H
#define MCVAR_PNL_WRITER_H

#include <stddef.h>

#include "dist_risk.h"

/* tmp_path: the output's temporary name (the same on every rank). Returns 0, or -1 on every
 * rank with the message of the lowest failing rank in err (on that rank). */
int pnl_write(const dist_pnl *d, char *const *node_path, const char *tmp_path,
              size_t block_size, char *err, size_t errlen);

#endif
