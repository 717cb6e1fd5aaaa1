package io.gantry.jsdl.internal;

/**
 * Counts the JDBC {@code ?} parameters outside quotes and comments; whether a statement fits its
 * staging element is {@link SqlStatements}' work, with a real SQL parser.
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

  /** The index of the quote closing the literal opened at {@code open}, or the text's length. */
  static int closing(String sql, int open, char quote) {
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
}
