/* gfl_beat: the launcher's heartbeat (docs/task-farms.md, protocol version 2).
 *
 * A launcher running a long task, or waiting for the dispatcher's answer, has nothing to say; a
 * dispatcher cannot tell that silence from a host that vanished without a FIN or a reset (its
 * TCP then retransmits for up to 15 minutes, and keepalive probes wait while anything sent is
 * unacknowledged). So, from WELCOME on, a thread sends a HEARTBEAT frame every interval the
 * dispatcher chose, whatever the main thread does (a task's poll loop, a blocking read, the
 * session relay), and the dispatcher ends a connection it has heard nothing from for several
 * intervals.
 *
 * Every frame the launcher sends goes through gfl_send, which holds one lock for the whole frame,
 * so a heartbeat never lands inside another frame. */
#ifndef GFL_BEAT_H
#define GFL_BEAT_H

#include <stddef.h>
#include <stdint.h>

/* Writes a whole frame to fd under the send lock; 0, or -1 (errno set) when the connection broke. */
int gfl_send(int fd, const void *p, size_t n);

/* Starts the heartbeat thread on fd, a HEARTBEAT frame every interval_ms; 0 or -1 (errno set). */
int gfl_beat_start(int fd, uint32_t interval_ms);

/* Stops the heartbeat thread (if started) and waits for it, shutting fd down first (the thread
 * may be blocked in a send to a dispatcher that reads no more). Call when the launcher is done
 * with the connection, before closing fd. */
void gfl_beat_stop(int fd);

#endif
