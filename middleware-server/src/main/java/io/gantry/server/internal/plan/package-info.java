/**
 * How a job description becomes a plan ({@link io.gantry.server.internal.plan.JobPlanner}): data
 * sources and the owner's access to them, applications, file systems, the job directory, process
 * counts, and the stored plan every later read answers from.
 */
package io.gantry.server.internal.plan;
