/**
 * The compute-backend seam: one {@link io.gantry.server.internal.compute.ComputeBackend} per {@code
 * compute.backend} value, chosen by {@link io.gantry.server.internal.compute.ComputeBackends}; the
 * backends themselves are in {@code backends}.
 */
package io.gantry.server.internal.compute;
