/**
 * A Slurm and OpenSSH test cluster in network namespaces ({@link
 * io.gantry.testing.cluster.NamespaceCluster}), started through the docker images' own entry
 * scripts.
 */
package io.gantry.testing.cluster;
