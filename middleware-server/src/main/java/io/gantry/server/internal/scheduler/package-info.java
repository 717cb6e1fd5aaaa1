/**
 * The meta-scheduler ({@link io.gantry.server.internal.scheduler.MetaScheduler}): first come, first
 * served over the compute slots, dependencies and holds judged by a gate, every transition stored
 * before it is acted on, and recovery after a restart.
 */
package io.gantry.server.internal.scheduler;
