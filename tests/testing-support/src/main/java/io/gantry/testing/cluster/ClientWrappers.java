package io.gantry.testing.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Small scripts that run a client program inside a cluster's login namespace with the cluster's
 * environment: a program outside the namespaces (a gantry-server under test) calls {@code
 * BIN/sbatch} as it would call {@code sbatch} on a real login node.
 */
final class ClientWrappers {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=-]+");
  private static final List<String> SSH_CLIENTS = List.of("ssh", "scp", "sftp");

  private ClientWrappers() {}

  /**
   * Writes one wrapper per program into {@code bin}; ssh clients get {@code -F sshConfig} when it
   * is given.
   */
  static void write(
      Path bin,
      List<String> programs,
      Map<String, String> environment,
      String namespace,
      Path sshConfig)
      throws IOException {
    Files.createDirectories(bin);
    for (String program : programs) {
      Path target =
          Tools.find(program).orElseThrow(() -> new IllegalStateException(program + " not found"));
      StringBuilder script =
          new StringBuilder(
              "#!/bin/sh\n# Runs " + program + " on the test cluster's login host.\n");
      environment.forEach(
          (k, v) ->
              script
                  .append("export ")
                  .append(plain(k))
                  .append("='")
                  .append(plain(v))
                  .append("'\n"));
      script
          .append("exec nsenter --net=/run/netns/")
          .append(plain(namespace))
          .append(" -- ")
          .append(plain(target.toString()));
      if (sshConfig != null && SSH_CLIENTS.contains(program)) {
        script.append(" -F ").append(plain(sshConfig.toString()));
      }
      script.append(" \"$@\"\n");
      Path wrapper = bin.resolve(program);
      Files.writeString(wrapper, script, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  private static String plain(String value) {
    // The wrappers are generated shell text: only plain words (and single spaces inside quotes) go
    // in.
    if (!PLAIN.matcher(value.replace(' ', '_')).matches()) {
      throw new IllegalStateException("not a plain value for a wrapper script: " + value);
    }
    return value;
  }
}
