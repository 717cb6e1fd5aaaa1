package io.gantry.staging.internal.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises a stage-out statement of the one shape that can run over a whole staged table at once:
 * {@code INSERT INTO target [(columns)] VALUES (expressions)}, one row of expressions, nothing
 * after it. Such a statement means the same, row by row, as {@code INSERT INTO target [(columns)]
 * SELECT expressions FROM staged}, with each {@code ?} of the expressions replaced by the staged
 * column it would have been bound to. Anything else (UPDATE, MERGE, several VALUES rows, {@code ON
 * CONFLICT}, {@code RETURNING}, {@code DEFAULT}, a {@code WITH} clause, JDBC escapes) is not
 * recognised and keeps the JDBC batch path.
 *
 * <p>The scan skips what PostgreSQL and its JDBC driver skip when they look for {@code ?}: string
 * literals ({@code '...'} with {@code ''}, {@code E'...'} with backslash escapes), quoted
 * identifiers, dollar-quoted strings, line and (nested) block comments.
 */
final class InsertValuesShape {
  /** The text before {@code VALUES}: {@code INSERT INTO target (columns)}. */
  private final String head;

  /** The expressions between VALUES' parentheses, cut at each marker: markers.size() + 1 parts. */
  private final List<String> parts;

  private InsertValuesShape(String head, List<String> parts) {
    this.head = head;
    this.parts = parts;
  }

  /** The number of {@code ?} markers in the statement. */
  int markers() {
    return parts.size() - 1;
  }

  /**
   * Whether the expressions are the markers alone ({@code VALUES (?, ?, ?)}): then the statement
   * means the same as COPY into its target and columns.
   */
  boolean valuesAreMarkersOnly() {
    if (parts.size() < 2 || !parts.get(0).isBlank() || !parts.get(parts.size() - 1).isBlank()) {
      return false;
    }
    for (int i = 1; i < parts.size() - 1; i++) {
      if (!parts.get(i).strip().equals(",")) {
        return false;
      }
    }
    return true;
  }

  /**
   * The target and column list of a plain {@code INSERT INTO name [(columns)]} head (a name of up
   * to three plain or quoted parts, no alias, comment or {@code OVERRIDING}): {@code [name, columns
   * or null]}; null for any other head.
   */
  String[] plainTarget() {
    Matcher m = PLAIN_HEAD.matcher(head);
    return m.matches() ? new String[] {m.group(1), m.group(2)} : null;
  }

  private static final String NAME_PART = "(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)";

  private static final Pattern PLAIN_HEAD =
      Pattern.compile(
          "(?is)insert\\s+into\\s+("
              + NAME_PART
              + "(?:\\."
              + NAME_PART
              + "){0,2})\\s*(?:\\(([^()\"]*)\\))?");

  /**
   * The set-based statement: {@code head SELECT expressions FROM from}, marker {@code i} (from 1)
   * replaced by {@code replacement[i - 1]} (a staged column, or {@code ?} for a value still bound).
   */
  String overStagedRows(String[] replacement, String from) {
    StringBuilder b = new StringBuilder(head).append(" SELECT ");
    for (int i = 0; i < parts.size(); i++) {
      b.append(parts.get(i));
      if (i < replacement.length) {
        b.append(replacement[i]);
      }
    }
    return b.append(" FROM ").append(from).toString();
  }

  /** The statement's shape, or null if it is not a one-row {@code INSERT ... VALUES}. */
  static InsertValuesShape of(String statement) {
    Scan s = new Scan(statement);
    if (!"insert".equals(s.nextWord()) || !"into".equals(s.nextWord())) {
      return null;
    }
    // to VALUES at depth 0, with no marker, brace or semicolon before it
    int valuesAt = -1;
    while (valuesAt < 0) {
      int start = s.skipToToken();
      if (start >= statement.length()) {
        return null;
      }
      char ch = statement.charAt(start);
      if (ch == '?' || ch == '{' || ch == ';') {
        return null;
      }
      String word = s.nextWord();
      if (word == null) {
        s.skipOne();
      } else if (word.equals("values") && s.depth == 0) {
        valuesAt = start;
      } else if (word.equals("select") || word.equals("default")) {
        return null;
      }
    }
    int open = s.skipToToken();
    if (open >= statement.length() || statement.charAt(open) != '(') {
      return null;
    }
    s.skipOne(); // depth 1
    List<String> parts = new ArrayList<>();
    int partStart = s.pos;
    int close = -1;
    while (close < 0) {
      int at = s.skipToToken();
      if (at >= statement.length()) {
        return null;
      }
      char ch = statement.charAt(at);
      if (ch == '{' || ch == ';') {
        return null;
      }
      if (ch == '?') {
        parts.add(statement.substring(partStart, at));
        s.skipOne();
        partStart = s.pos;
        continue;
      }
      String word = s.nextWord();
      if (word == null) {
        s.skipOne();
        if (ch == ')' && s.depth == 0) {
          close = at;
        }
      } else if (word.equals("default")) {
        return null;
      }
    }
    parts.add(statement.substring(partStart, close));
    // nothing but blanks, comments and semicolons may follow
    while (true) {
      int at = s.skipToToken();
      if (at >= statement.length()) {
        break;
      }
      if (statement.charAt(at) != ';') {
        return null;
      }
      s.skipOne();
    }
    return new InsertValuesShape(statement.substring(0, valuesAt).strip(), List.copyOf(parts));
  }

  /** A cursor over the statement that steps over literals, quoted names and comments. */
  private static final class Scan {
    private final String sql;
    private int pos;
    private int depth;

    Scan(String sql) {
      this.sql = sql;
    }

    /**
     * Moves past blanks, comments, literals and quoted identifiers to the next other character;
     * returns its index (the length at the end).
     */
    int skipToToken() {
      while (pos < sql.length()) {
        char c = sql.charAt(pos);
        if (Character.isWhitespace(c)) {
          pos++;
        } else if (c == '-' && sql.startsWith("--", pos)) {
          int eol = sql.indexOf('\n', pos);
          pos = eol < 0 ? sql.length() : eol + 1;
        } else if (c == '/' && sql.startsWith("/*", pos)) {
          skipBlockComment();
        } else if (c == '\'') {
          skipQuoted('\'', isEscapeString());
        } else if (c == '"') {
          skipQuoted('"', false);
        } else if (c == '$' && dollarTag() != null) {
          String tag = dollarTag();
          int end = sql.indexOf(tag, pos + tag.length());
          pos = end < 0 ? sql.length() : end + tag.length();
        } else {
          return pos;
        }
      }
      return pos;
    }

    /** The lower-case word at the cursor (after skipping), advancing past it; else null. */
    String nextWord() {
      int start = skipToToken();
      int end = start;
      while (end < sql.length()
          && (Character.isLetterOrDigit(sql.charAt(end))
              || sql.charAt(end) == '_'
              || sql.charAt(end) == '$')) {
        end++;
      }
      if (end == start || (!Character.isLetter(sql.charAt(start)) && sql.charAt(start) != '_')) {
        return null;
      }
      // a word directly followed by a quote is a prefix (E'..', U&'..'): leave it to skipToToken
      if (end < sql.length() && sql.charAt(end) == '\'') {
        pos = end;
        return sql.substring(start, end).toLowerCase(Locale.ROOT) + "'";
      }
      pos = end;
      return sql.substring(start, end).toLowerCase(Locale.ROOT);
    }

    /** Steps over one character that is not a word, tracking parenthesis depth. */
    void skipOne() {
      char c = sql.charAt(pos++);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
    }

    private boolean isEscapeString() {
      return pos > 0
          && (sql.charAt(pos - 1) == 'e' || sql.charAt(pos - 1) == 'E')
          && (pos < 2 || !Character.isLetterOrDigit(sql.charAt(pos - 2)));
    }

    private void skipQuoted(char quote, boolean backslashEscapes) {
      pos++;
      while (pos < sql.length()) {
        char c = sql.charAt(pos++);
        if (backslashEscapes && c == '\\') {
          pos++;
        } else if (c == quote) {
          if (pos < sql.length() && sql.charAt(pos) == quote) {
            pos++;
          } else {
            return;
          }
        }
      }
    }

    private void skipBlockComment() {
      int nesting = 0;
      while (pos < sql.length()) {
        if (sql.startsWith("/*", pos)) {
          nesting++;
          pos += 2;
        } else if (sql.startsWith("*/", pos)) {
          nesting--;
          pos += 2;
          if (nesting == 0) {
            return;
          }
        } else {
          pos++;
        }
      }
    }

    /** {@code $tag$} or {@code $$} at the cursor, or null ({@code $1} is a parameter). */
    private String dollarTag() {
      int end = pos + 1;
      while (end < sql.length()
          && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
        end++;
      }
      if (end >= sql.length() || sql.charAt(end) != '$') {
        return null;
      }
      if (end > pos + 1 && Character.isDigit(sql.charAt(pos + 1))) {
        return null;
      }
      return sql.substring(pos, end + 1);
    }
  }
}
