package io.gantry.jsdl.internal;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills the parameters of one SQL statement without ever putting a value into the SQL text: each
 * <code>${name}</code> of a declared parameter becomes a JDBC {@code ?} marker, and the marker's
 * number (counting every {@code ?} of the statement, in order) is mapped to the value. Quotes and
 * comments are skipped the way {@link SqlText} skips them: a reference inside a quoted literal
 * would be text to the database, not a parameter, so it is reported instead of filled.
 */
final class SqlTemplateText {
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_.]*)\\}");

  /**
   * The statement as the database sees it, and what was found.
   *
   * @param text the SQL with {@code ?} where the declared references stood
   * @param values marker number (from 1) to value, for the markers that were references
   * @param quoted declared names referred to inside a quoted literal (left as written)
   * @param unknown names in <code>${...}</code> that no parameter declares (left as written)
   */
  record Filled(
      String text, SortedMap<Integer, String> values, Set<String> quoted, Set<String> unknown) {}

  private SqlTemplateText() {}

  static Filled fill(String sql, Map<String, String> declared) {
    StringBuilder out = new StringBuilder(sql.length());
    SortedMap<Integer, String> values = new TreeMap<>();
    Set<String> quoted = new LinkedHashSet<>();
    Set<String> unknown = new LinkedHashSet<>();
    int marker = 0;
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = Math.min(SqlText.closing(sql, i, c) + 1, sql.length());
        String literal = sql.substring(i, end);
        Matcher m = REFERENCE.matcher(literal);
        while (m.find()) {
          if (!escaped(literal, m.start())) {
            (declared.containsKey(m.group(1)) ? quoted : unknown).add(m.group(1));
          }
        }
        out.append(literal.replace("$${", "${"));
        i = end;
      } else if (sql.startsWith("--", i) || sql.startsWith("/*", i)) {
        int end = commentEnd(sql, i);
        out.append(sql, i, end); // comments are left exactly as written
        i = end;
      } else if (c == '?') {
        marker++;
        out.append(c);
        i++;
      } else if (sql.startsWith("$${", i)) {
        out.append("${");
        i += 3;
      } else {
        Matcher m = REFERENCE.matcher(sql).region(i, sql.length());
        if (c == '$' && m.lookingAt()) {
          String name = m.group(1);
          if (declared.containsKey(name)) {
            marker++;
            values.put(marker, declared.get(name));
            out.append('?');
          } else {
            unknown.add(name);
            out.append(m.group());
          }
          i = m.end();
        } else {
          out.append(c);
          i++;
        }
      }
    }
    return new Filled(out.toString(), values, quoted, unknown);
  }

  private static boolean escaped(String text, int dollar) {
    return dollar > 0 && text.charAt(dollar - 1) == '$';
  }

  private static int commentEnd(String sql, int start) {
    if (sql.startsWith("--", start)) {
      int end = sql.indexOf('\n', start);
      return end < 0 ? sql.length() : end;
    }
    int end = sql.indexOf("*/", start + 2);
    return end < 0 ? sql.length() : end + 2;
  }
}
