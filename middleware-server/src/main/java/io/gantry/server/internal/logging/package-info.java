/**
 * The server's log as an operator keeps it (docs/operations.md, "Logs"): the job and user each line
 * is about ({@link io.gantry.server.internal.logging.JobLog}), and the console and rolling file the
 * {@code log.*} settings ask for ({@link io.gantry.server.internal.logging.LogSetup}).
 */
package io.gantry.server.internal.logging;
