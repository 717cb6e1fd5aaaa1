package io.gantry.dispatcher;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The OS account a job's programs run under: the uid, primary gid and supplementary groups that
 * {@code setpriv} switches to inside the sandbox. Checked on construction: a job never runs as
 * root, nor with root's group, because inside the sandbox that would give back what the sandbox
 * takes away (root may remount, read every file, signal every process).
 *
 * @param name the account's login name (for messages, {@code USER} and {@code LOGNAME})
 * @param uid its user id, never 0
 * @param gid its primary group id, never 0
 * @param groups its supplementary group ids (the primary one may be among them), none 0
 */
public record JobAccount(String name, int uid, int gid, List<Integer> groups) {
  /** What useradd accepts (POSIX portable user names), so a name is safe in argv and logs. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,31}\\$?");

  public JobAccount {
    requireValidName(name);
    groups = List.copyOf(Objects.requireNonNull(groups, "groups"));
    if (uid == 0) {
      throw new IllegalArgumentException(
          "OS account " + name + " is root (uid 0); jobs never run as root");
    }
    if (uid < 0 || gid < 0) {
      throw new IllegalArgumentException("OS account " + name + " has a negative uid or gid");
    }
    if (gid == 0 || groups.contains(0)) {
      throw new IllegalArgumentException(
          "OS account "
              + name
              + " is in group 0 (root); a job account must not be, since root's group owns system files");
    }
  }

  /** Refuses anything but a plain account name (letters, digits, '.', '_', '-'; at most 32). */
  public static String requireValidName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not an OS account name (letters, digits,"
              + " '.', '_', '-', at most 32, not starting with '-' or '.')");
    }
    return name;
  }
}
