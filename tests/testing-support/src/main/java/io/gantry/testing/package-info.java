/**
 * Shared test fixtures: real databases and an SSH host on loopback, started by tests; {@code
 * cluster}: a Slurm and OpenSSH cluster in network namespaces.
 */
package io.gantry.testing;
