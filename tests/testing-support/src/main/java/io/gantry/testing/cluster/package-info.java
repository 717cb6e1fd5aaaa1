/**
 * A Slurm and OpenSSH test cluster in network namespaces ({@link
 * io.gantry.testing.cluster.NamespaceCluster}), started through the docker images' own entry
 * scripts, and the settings that put a test server's jobs on it, one preset per compute backend
 * ({@link io.gantry.testing.cluster.ClusterBackendSettings}).
 */
package io.gantry.testing.cluster;
