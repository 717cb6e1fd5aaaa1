/**
 * Sessions of long-lived workers, the second mode of "Asynchronous Task Dispatch for High
 * Throughput Computing" (docs/task-farms.md, "Sessions"): a {@link
 * io.gantry.dispatcher.workersession.SessionDispatcher} lets in the session's {@code
 * gantry-launcher}s, has each start the session's worker program once, and relays task messages to
 * the workers' standard input and their answers back, with priorities, a window of messages in
 * flight per worker, and messages of a worker that died queued again.
 */
package io.gantry.dispatcher.workersession;
