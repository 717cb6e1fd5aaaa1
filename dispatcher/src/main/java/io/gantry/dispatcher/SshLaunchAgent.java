package io.gantry.dispatcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How {@code mpirun} reaches the other hosts of a host file: Open MPI starts its daemons there with
 * {@code ssh}. The settings come from the operator only, and are handed to mpirun as {@code
 * OMPI_MCA_plm_rsh_agent} and {@code OMPI_MCA_plm_rsh_args} (a job may set no variable starting
 * with {@code OMPI_}, see {@link MpirunCommand}).
 *
 * <p>Open MPI splits {@code plm_rsh_args} at spaces, so no value here may contain white space.
 *
 * @param ssh the ssh program
 * @param identity the private key, or null for ssh's own default
 * @param knownHosts the known_hosts file host keys are checked against (strictly), or null for
 *     ssh's default
 * @param user the remote account, or null for the server's own name
 * @param configFile an ssh_config file, or null
 */
public record SshLaunchAgent(
    String ssh, Path identity, Path knownHosts, String user, Path configFile) {

  public SshLaunchAgent {
    Objects.requireNonNull(ssh, "ssh");
    for (String value :
        new String[] {ssh, text(identity), text(knownHosts), user, text(configFile)}) {
      if (value != null
          && (value.isBlank()
              || value.chars().anyMatch(c -> Character.isWhitespace(c) || c < 0x20))) {
        throw new IllegalArgumentException(
            "ssh settings for mpirun may not contain white space: '" + value + "'");
      }
    }
    if (user != null && user.startsWith("-")) {
      throw new IllegalArgumentException("ssh user must not start with '-': " + user);
    }
  }

  /**
   * The variables mpirun gets: agent and its arguments, batch mode and strict host keys always on.
   */
  public Map<String, String> environment() {
    List<String> args = new ArrayList<>();
    if (configFile != null) {
      args.add("-F");
      args.add(configFile.toString());
    }
    if (identity != null) {
      args.add("-i");
      args.add(identity.toString());
      args.add("-o");
      args.add("IdentitiesOnly=yes");
    }
    if (knownHosts != null) {
      args.add("-o");
      args.add("UserKnownHostsFile=" + knownHosts);
    }
    args.add("-o");
    args.add("StrictHostKeyChecking=yes");
    args.add("-o");
    args.add("BatchMode=yes");
    if (user != null) {
      args.add("-l");
      args.add(user);
    }
    // no tree spawn: only mpirun, here, runs ssh; the daemons on the hosts never ssh onwards, so
    // the key (the operator's or a job's) is needed on, and stays on, this host only
    // The daemons detach from their ssh once started, so only Open MPI's own TCP connection from
    // each daemon to mpirun tells a lost host: its keepalive probes (Open MPI's default: first
    // after 300 s idle, 9 more 20 s apart) now say within about 5 + 3 x 2 s that a host is gone,
    // and mpirun aborts the job naming it ("lost communication with a remote daemon ... on node
    // HOST"; docs/reliability.md, "Lost nodes").
    return Map.of(
        "OMPI_MCA_oob_tcp_keepalive_time",
        "5",
        "OMPI_MCA_oob_tcp_keepalive_intvl",
        "2",
        "OMPI_MCA_oob_tcp_keepalive_probes",
        "3",
        "OMPI_MCA_plm_rsh_agent",
        ssh,
        "OMPI_MCA_plm_rsh_args",
        String.join(" ", args),
        "OMPI_MCA_plm_rsh_no_tree_spawn",
        "1");
  }

  private static String text(Path p) {
    return p == null ? null : p.toString();
  }
}
