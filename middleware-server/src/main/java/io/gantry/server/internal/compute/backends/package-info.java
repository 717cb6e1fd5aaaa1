/**
 * The compute backends (local, mpirun-hosts, slurm, slurm over SSH) and what they share; only the
 * factory in the parent package names them.
 */
package io.gantry.server.internal.compute.backends;
