package io.gantry.staging;

import java.util.List;
import java.util.Objects;

/**
 * The OS account the gateway acts as wherever it reads or writes files on a user's behalf outside
 * the job directory: a JSDL file system ({@link NamedFileSystem}) and a {@code file:} root. Those
 * files are opened, created, replaced and deleted by a short-lived helper process running as this
 * account (util-linux {@code setpriv}, no capabilities, {@code no_new_privs}), so the kernel
 * applies owner, mode and sticky-bit rules exactly as for the job's own program. The server itself
 * runs as root and would otherwise read and replace every user's files there.
 *
 * @param name the account's login name, for messages
 * @param uid its user id, never 0
 * @param gid its primary group id, never 0
 * @param groups its supplementary group ids, none 0
 */
public record FileAccount(String name, int uid, int gid, List<Integer> groups) {
  public FileAccount {
    Objects.requireNonNull(name, "name");
    groups = List.copyOf(groups);
    if (uid <= 0 || gid <= 0 || groups.contains(0)) {
      throw new IllegalArgumentException(
          "OS account " + name + " is root or in group 0; staging never acts as either");
    }
  }
}
