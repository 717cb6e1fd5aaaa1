package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.JobSandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts one empty sandbox ({@code /usr/bin/true} under the given account) so that a server finds
 * out at start, with bubblewrap's own words, that it cannot confine jobs here (bwrap or setpriv
 * missing, not running as root, no mount namespaces in this container), rather than failing every
 * job later.
 */
public final class SandboxProbe {
  private SandboxProbe() {}

  /**
   * @throws LaunchException saying what failed; the account is left as it was
   */
  public static void verify(SandboxConfig config, JobAccount account) throws LaunchException {
    for (Path program : List.of(config.bwrap(), config.setpriv())) {
      if (!Files.isRegularFile(program) || !Files.isExecutable(program)) {
        throw new LaunchException(
            program
                + " is missing; jobs run inside bubblewrap and switch account"
                + " with setpriv (Debian: apt-get install bubblewrap util-linux)");
      }
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("gantry-sandbox-probe");
      Files.setAttribute(dir, "unix:uid", account.uid(), LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(dir, "unix:gid", account.gid(), LinkOption.NOFOLLOW_LINKS);
      LaunchSpec spec =
          LaunchSpec.builder("sandbox-probe", ProgramKind.POSIX, "/usr/bin/true")
              .workingDirectory(dir)
              .account(account)
              .output(dir.resolve("out"), dir.resolve("out"))
              .build();
      JobSandbox sandbox = new JobSandbox(config);
      LaunchSpec inside = sandbox.inside(spec, true);
      ProcessBuilder builder =
          new ProcessBuilder(sandbox.wrap(spec, inside, List.of("/usr/bin/true")))
              .redirectErrorStream(true);
      builder.environment().clear();
      builder.environment().put("PATH", "/usr/bin:/bin");
      Process p = builder.start();
      byte[] out = p.getInputStream().readNBytes(4096);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new LaunchException("a test sandbox did not end within 30 s");
      }
      if (p.exitValue() != 0) {
        throw new LaunchException(
            "cannot start a job sandbox as OS account "
                + account.name()
                + " (exit "
                + p.exitValue()
                + "): "
                + new String(out, StandardCharsets.UTF_8).strip()
                + "; gantry-server must run as root on a host that allows mount and PID namespaces");
      }
    } catch (IOException e) {
      throw new LaunchException("cannot start a test sandbox: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException("interrupted while starting a test sandbox", e);
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
