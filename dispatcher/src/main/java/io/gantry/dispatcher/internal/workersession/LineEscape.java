package io.gantry.dispatcher.internal.workersession;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The escaping of a message on a worker's line (docs/task-farms.md, "The worker's line protocol"):
 * UTF-8, with a backslash written {@code \\}, a line feed {@code \n} and a carriage return {@code
 * \r}, so that any string is exactly one line. Text without these characters travels unchanged.
 * Answers are unescaped the same way; a backslash before any other character, or at the end, is
 * kept as it is, so a worker that never escapes loses nothing but its own backslash pairs.
 */
public final class LineEscape {
  private LineEscape() {}

  public static byte[] escape(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    int special = 0;
    for (byte b : utf8) {
      if (b == '\\' || b == '\n' || b == '\r') {
        special++;
      }
    }
    if (special == 0) {
      return utf8;
    }
    byte[] out = new byte[utf8.length + special];
    int j = 0;
    for (byte b : utf8) {
      switch (b) {
        case '\\' -> {
          out[j++] = '\\';
          out[j++] = '\\';
        }
        case '\n' -> {
          out[j++] = '\\';
          out[j++] = 'n';
        }
        case '\r' -> {
          out[j++] = '\\';
          out[j++] = 'r';
        }
        default -> out[j++] = b;
      }
    }
    return out;
  }

  /** The answer's text: escapes undone, bytes that are not UTF-8 replaced by U+FFFD. */
  public static String unescape(byte[] line) {
    byte[] raw = line;
    if (indexOf(line, (byte) '\\') >= 0) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(line.length);
      for (int i = 0; i < line.length; i++) {
        byte b = line[i];
        if (b == '\\' && i + 1 < line.length) {
          byte n = line[i + 1];
          if (n == '\\' || n == 'n' || n == 'r') {
            out.write(n == 'n' ? '\n' : n == 'r' ? '\r' : '\\');
            i++;
            continue;
          }
        }
        out.write(b);
      }
      raw = out.toByteArray();
    }
    return new String(raw, StandardCharsets.UTF_8); // malformed bytes become U+FFFD
  }

  private static int indexOf(byte[] a, byte b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
