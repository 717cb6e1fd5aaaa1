package io.gantry.server.internal.compute.backends;

import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.JobDirectoryReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A job's own Open MPI host file under the local backend. Local means this host: mpirun runs in the
 * job's sandbox here, and the meta-scheduler counted the job's slots here. A host file may still
 * say how many slots this host has ({@code localhost slots=4}), but a line naming another host
 * would have mpirun start ranks there over ssh, outside the sandbox and the slot count; so the job
 * is refused at launch (the file is staged in, so it can only be read then), naming the hosts.
 * Spreading jobs over hosts is the operator's choice: compute.backend=mpirun-hosts.
 */
final class LocalHostFile {
  private static final Set<String> LOOPBACK =
      Set.of("localhost", "127.0.0.1", "::1", "localhost.localdomain");

  private LocalHostFile() {}

  /**
   * Refuses {@code hostFile} (inside {@code jobDirectory}) if it names a host other than this one.
   */
  static void check(Path jobDirectory, Path hostFile) throws JobFailure {
    Path dir = jobDirectory.toAbsolutePath().normalize();
    String relative = dir.relativize(hostFile.toAbsolutePath().normalize()).toString();
    Set<String> others = new TreeSet<>();
    try (Reader in =
            Channels.newReader(JobDirectoryReader.open(dir, relative), StandardCharsets.UTF_8);
        BufferedReader lines = new BufferedReader(in)) {
      Set<String> self = thisHost();
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        String content = line.replaceFirst("#.*", "").strip();
        if (content.isEmpty()) {
          continue;
        }
        String host = content.split("\\s+")[0];
        if (!self.contains(host.toLowerCase(Locale.ROOT))) {
          others.add(host);
        }
      }
    } catch (IOException e) {
      throw new JobFailure("HostFile " + relative + " cannot be read: " + e.getMessage(), e);
    }
    if (!others.isEmpty()) {
      throw new JobFailure(
          "HostFile "
              + relative
              + " names "
              + String.join(", ", others)
              + "; this server's"
              + " compute backend is local and runs every rank on this host (give localhost, or leave HostFile out)");
    }
  }

  private static Set<String> thisHost() {
    Set<String> names = new TreeSet<>(LOOPBACK);
    try {
      InetAddress local = InetAddress.getLocalHost();
      names.add(local.getHostName().toLowerCase(Locale.ROOT));
      names.add(local.getCanonicalHostName().toLowerCase(Locale.ROOT));
      names.add(local.getHostAddress());
    } catch (UnknownHostException e) {
      // no resolvable name of our own: only the loopback names count as this host
    }
    return names;
  }
}
