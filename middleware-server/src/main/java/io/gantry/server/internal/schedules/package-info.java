/**
 * Schedules (docs/nightly-run.md, middleware-server/docs/soap-api.md): {@link
 * io.gantry.server.internal.schedules.ScheduleBook} answers the schedule operations, {@link
 * io.gantry.server.internal.schedules.ScheduleRunner} submits each schedule's job at its times as
 * its owner, through the same submission as a user's.
 */
package io.gantry.server.internal.schedules;
