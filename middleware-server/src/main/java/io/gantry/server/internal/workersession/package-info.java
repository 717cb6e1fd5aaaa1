/**
 * Sessions of long-lived workers (docs/task-farms.md, "Sessions"): {@link
 * io.gantry.server.internal.workersession.WorkerSessions} opens them (a dispatcher and the user's
 * launchers), finds them for their owner only, and closes them on request, when idle, and at
 * shutdown.
 */
package io.gantry.server.internal.workersession;
