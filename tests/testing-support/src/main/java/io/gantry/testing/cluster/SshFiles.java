package io.gantry.testing.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Keys and client files of a test cluster's ssh: made with ssh-keygen, written for ssh -F and
 * mpirun.
 */
final class SshFiles {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private SshFiles() {}

  /** A new ed25519 key pair without passphrase: {@code file} and {@code file.pub}. */
  static void keygen(Path file, String comment) {
    Commands.check(
        List.of(
            "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file.toString()),
        TIMEOUT);
  }

  /** "type base64" of {@code privateKey}'s public half, as known_hosts wants it. */
  static String publicKey(Path privateKey) throws IOException {
    Path pub = privateKey.resolveSibling(privateKey.getFileName() + ".pub");
    String[] parts = Files.readString(pub, StandardCharsets.UTF_8).trim().split(" ");
    return parts[0] + " " + parts[1];
  }

  /**
   * An ssh_config for every host: this key only, this known_hosts only, strict checking, no
   * prompts.
   */
  static void writeConfig(Path config, String user, Path identity, Path knownHosts)
      throws IOException {
    Files.writeString(
        config,
        String.join(
            "\n",
            "Host *",
            "  User " + user,
            "  IdentityFile " + identity,
            "  IdentitiesOnly yes",
            "  UserKnownHostsFile " + knownHosts,
            "  GlobalKnownHostsFile /dev/null",
            "  StrictHostKeyChecking yes",
            "  BatchMode yes",
            "  ConnectTimeout 10",
            ""),
        StandardCharsets.UTF_8);
  }

  /** An Open MPI host file: one line per address with its slots. */
  static void writeHostfile(Path hostfile, List<String> addresses, int slots) throws IOException {
    StringBuilder text = new StringBuilder();
    addresses.forEach(a -> text.append(a).append(" slots=").append(slots).append('\n'));
    Files.writeString(hostfile, text, StandardCharsets.UTF_8);
  }
}
