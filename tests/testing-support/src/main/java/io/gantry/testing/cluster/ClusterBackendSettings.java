package io.gantry.testing.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The settings that put a Gantry test server's jobs on a {@link NamespaceCluster}, one preset per
 * compute backend (docs/configuration.md, "Compute backends"), so that every cluster test runs its
 * backend the same way.
 */
public final class ClusterBackendSettings {
  private ClusterBackendSettings() {}

  /**
   * {@code compute.backend=slurm} with the cluster's client commands (wrappers that run them in the
   * login namespace), polled every second.
   */
  public static Map<String, String> slurm(NamespaceCluster cluster) {
    return Map.of(
        "compute.backend",
        "slurm",
        "slurm.bin-dir",
        cluster.clientBin().toString(),
        "slurm.conf",
        cluster.slurmConf().toString(),
        "slurm.poll-interval",
        "1");
  }

  /**
   * Writes {@code DIRECTORY/mpirun-on-login}: mpirun run on the cluster's login host, where the
   * hosts' addresses are reachable; its ssh settings come from the server's configuration. Returns
   * its path, for {@link #mpirunHosts}.
   */
  public static Path mpirunOnLogin(NamespaceCluster cluster, Path directory) throws IOException {
    Path wrapper = directory.resolve("mpirun-on-login");
    Files.writeString(
        wrapper,
        "#!/bin/sh\nexec nsenter --net=/run/netns/"
            + cluster.loginNamespace()
            + " -- mpirun \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    return wrapper;
  }

  /**
   * {@code compute.backend=mpirun-hosts} across the cluster's hosts over ssh with its key, known
   * hosts and account, mpirun being {@code mpirunOnLogin} ({@link #mpirunOnLogin}).
   */
  public static Map<String, String> mpirunHosts(NamespaceCluster cluster, Path mpirunOnLogin) {
    return Map.of(
        "compute.backend",
        "mpirun-hosts",
        "mpirun.path",
        mpirunOnLogin.toString(),
        "mpirun.hostfile",
        cluster.hostfile().toString(),
        "mpirun.ssh-identity",
        cluster.sshPrivateKey().toString(),
        "mpirun.ssh-known-hosts",
        cluster.knownHosts().toString(),
        "mpirun.ssh-user",
        cluster.sshUser());
  }

  /**
   * A cluster reached over SSH ({@code compute.ssh-host}): job directories under {@code root} on
   * the cluster's login host, reached through the fixture's relay, with the cluster's key (identity
   * "cluster") and known_hosts, and its Slurm polled every second.
   */
  public static Map<String, String> slurmOverSsh(NamespaceCluster cluster, Path root)
      throws IOException {
    return Map.of(
        "compute.backend", "slurm",
        "compute.ssh-host", relayHostInKnownHosts(cluster),
        "compute.ssh-port", Integer.toString(cluster.loginSshEndpoint().getPort()),
        "compute.ssh-user", cluster.sshUser(),
        "compute.ssh-identity", "cluster",
        "identity.cluster.key-file", cluster.sshPrivateKey().toString(),
        "compute.ssh-known-hosts", cluster.knownHosts().toString(),
        "compute.root", root.toString(),
        "slurm.poll-interval", "1");
  }

  /** The name the relay's key is filed under in the cluster's known_hosts ("[NAME]:PORT KEY"). */
  private static String relayHostInKnownHosts(NamespaceCluster cluster) throws IOException {
    String port = "]:" + cluster.loginSshEndpoint().getPort() + " ";
    String line =
        Files.readAllLines(cluster.knownHosts()).stream()
            .filter(l -> l.contains(port))
            .findFirst()
            .orElseThrow();
    return line.substring(1, line.indexOf(']'));
  }
}
