package io.gantry.dispatcher;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Looks OS accounts up the way the C library does, through NSS, so accounts from LDAP or SSSD work
 * as well as those in /etc/passwd: {@code getent passwd NAME} for the uid and primary gid, and
 * {@code id -G NAME} for every group the account is in (what {@code initgroups} would give a
 * login). Both run from an argument array with an empty environment, never through a shell; the
 * name is checked first and passed after {@code --}, so it cannot be read as an option.
 */
public final class OsAccounts {
  private static final long TIMEOUT_SECONDS = 10;

  private OsAccounts() {}

  /**
   * The account of that name.
   *
   * @throws IllegalArgumentException if there is no such account, or it is root or in group 0
   */
  public static JobAccount lookup(String name) {
    JobAccount.requireValidName(name);
    String passwd = run("getent", "passwd", "--", name);
    if (passwd == null) {
      throw new IllegalArgumentException(
          "OS account "
              + name
              + " does not exist on this host"
              + " (getent passwd "
              + name
              + " finds nothing); create it first, e.g. useradd --system"
              + " --no-create-home --shell /usr/sbin/nologin "
              + name);
    }
    String[] fields = passwd.strip().split(":", -1);
    if (fields.length < 7 || !fields[0].equals(name)) {
      throw new IllegalArgumentException(
          "OS account " + name + ": unexpected passwd entry from getent");
    }
    int uid = number(fields[2], name);
    int gid = number(fields[3], name);
    String groupList = run("id", "-G", "--", name);
    List<Integer> groups = new ArrayList<>();
    if (groupList != null) {
      for (String g : groupList.strip().split("\\s+")) {
        if (!g.isEmpty()) {
          groups.add(number(g, name));
        }
      }
    }
    return new JobAccount(name, uid, gid, groups);
  }

  /** The uid this server process runs as (its real uid, the owner of /proc/self). */
  public static int serverUid() {
    try {
      return (Integer)
          java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalStateException("cannot tell which uid this server runs as: " + e, e);
    }
  }

  private static int number(String text, String name) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "OS account " + name + ": '" + text + "' is not a numeric id");
    }
  }

  /** Standard output of the command, or null when it exits non-zero (getent: 2 = not found). */
  private static String run(String... argv) {
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .redirectErrorStream(false)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/bin:/bin");
    try {
      Process p = builder.start();
      byte[] out;
      try (InputStream in = p.getInputStream()) {
        out = in.readNBytes(64 * 1024);
      }
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            argv[0] + " did not answer within " + TIMEOUT_SECONDS + " s");
      }
      return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run " + argv[0] + " to look up OS account: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while looking up an OS account", e);
    }
  }
}
