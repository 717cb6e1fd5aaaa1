/**
 * Task farms: one job's many independent tasks, pulled by a {@code gantry-launcher} on every
 * allocated core from the job's {@link io.gantry.dispatcher.farm.FarmDispatcher} (priority queue,
 * non-blocking I/O, per-job secret), each final task recorded in the {@link
 * io.gantry.dispatcher.farm.FarmJournal} and written out by {@link
 * io.gantry.dispatcher.farm.FarmResultsCsv}. The wire protocol is in docs/task-farms.md.
 */
package io.gantry.dispatcher.farm;
