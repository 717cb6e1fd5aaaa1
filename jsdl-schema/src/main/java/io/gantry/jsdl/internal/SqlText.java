package io.gantry.jsdl.internal;

import java.util.Locale;

/**
 * Just enough SQL reading to check a statement against its staging element: the JDBC {@code ?}
 * parameters outside quotes and comments, and the first keyword.
 */
final class SqlText {
  private SqlText() {}

  /** Number of {@code ?} parameters, skipping '...' "..." literals and -- and block comments. */
  static int parameterCount(String sql) {
    int count = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = closing(sql, i, c);
      } else if (c == '-' && sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 1;
      } else if (c == '?') {
        count++;
      }
    }
    return count;
  }

  private static int closing(String sql, int open, char quote) {
    int i = open + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2; // doubled quote inside a literal
          continue;
        }
        return i;
      }
      i++;
    }
    return sql.length();
  }

  /** The statement's first word in upper case, after blanks, comments and opening parentheses. */
  static String firstKeyword(String sql) {
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 2;
      } else {
        break;
      }
    }
    int start = i;
    while (i < sql.length() && Character.isLetter(sql.charAt(i))) {
      i++;
    }
    return sql.substring(start, i).toUpperCase(Locale.ROOT);
  }
}
