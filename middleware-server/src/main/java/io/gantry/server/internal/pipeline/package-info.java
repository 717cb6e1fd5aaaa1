/**
 * The job pipeline the meta-scheduler drives ({@link
 * io.gantry.server.internal.pipeline.JsdlJobPipeline}): stage in through the staging gateway, start
 * the program through the compute backend, stage out, with no branch on the backend.
 */
package io.gantry.server.internal.pipeline;
