package io.gantry.staging.internal.ssh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a plan's file name for a job directory on the cluster. Beyond the local rules (relative,
 * no {@code ..}), JSch treats {@code * ? [ ] \} in SFTP paths as glob syntax, so a name containing
 * one could address other files than the one it spells: such names are refused here, with what and
 * where, rather than escaped.
 */
final class RemotePaths {
  private RemotePaths() {}

  static List<String> components(String name, String what) throws IOException {
    if (name == null || name.isBlank()) {
      throw new IOException(what + " is empty");
    }
    if (name.startsWith("/")) {
      throw new IOException(
          what + " '" + name + "' must be relative to the job directory, not absolute");
    }
    List<String> parts = new ArrayList<>();
    for (String part : name.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw new IOException(what + " '" + name + "' must not contain '..'");
      }
      parts.add(part);
    }
    if (parts.isEmpty()) {
      throw new IOException(what + " '" + name + "' names the job directory itself");
    }
    checkDirectory(name, what);
    return parts;
  }

  /** A directory path the server itself chose (compute.root and the job id): the same refusals. */
  static void checkDirectory(String path, String what) throws IOException {
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if ("*?[]\\".indexOf(c) >= 0 || c == '\0' || c == '\n') {
        throw new IOException(
            what
                + " '"
                + path
                + "' contains '"
                + (c == '\n' ? "\\n" : c == '\0' ? "\\0" : String.valueOf(c))
                + "', which a job directory on the cluster does not allow in names");
      }
    }
  }

  static String join(String root, List<String> parts, int count) {
    StringBuilder b = new StringBuilder(root);
    for (int i = 0; i < count; i++) {
      b.append('/').append(parts.get(i));
    }
    return b.toString();
  }
}
