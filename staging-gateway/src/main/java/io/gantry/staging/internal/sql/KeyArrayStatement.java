package io.gantry.staging.internal.sql;

import java.util.Set;

/**
 * Rewrites a statement with one {@code ?} parameter into one statement over an array of keys
 * (PostgreSQL): {@code SELECT q.* FROM unnest(CAST(? AS type[])) WITH ORDINALITY AS k(v, n) CROSS
 * JOIN LATERAL (statement with k.v for ?) AS q}. The lateral subquery depends on the key, so
 * PostgreSQL runs it as a nested loop over the keys in array order, each key's rows in the
 * statement's own order: the rows of one execution per key, concatenated in input order. The
 * subquery is fenced ({@code OFFSET 0}) so it is not flattened into a join, and for the transaction
 * parallel plans, hash and merge joins are off ({@link #PLAN_SETTINGS}), so nothing but that nested
 * loop can produce the rows.
 */
final class KeyArrayStatement {
  /** Parameter types whose CSV text is also PostgreSQL's array element text for the same value. */
  private static final Set<String> TYPES =
      Set.of("int2", "int4", "int8", "varchar", "text", "bpchar", "numeric", "date");

  /** One statement, transaction-local: the plan shape the row order relies on. */
  static final String PLAN_SETTINGS =
      "SELECT set_config('max_parallel_workers_per_gather', '0', true),"
          + " set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)";

  private KeyArrayStatement() {}

  static boolean supports(String parameterTypeName) {
    return parameterTypeName != null && TYPES.contains(parameterTypeName);
  }

  /**
   * The rewritten statement, or null if {@code sql} does not have exactly one {@code ?} outside
   * quotes and comments.
   */
  static String rewrite(String sql, String parameterTypeName) {
    int at = onlyParameter(sql);
    if (at < 0) {
      return null;
    }
    String inner = sql.substring(0, at) + "gantry_key.v" + sql.substring(at + 1);
    // OFFSET 0 keeps the planner from pulling the subquery up into a join it may reorder (a merge
    // join on a primary key would return the keys sorted, not in input order)
    return "SELECT gantry_rows.* FROM unnest(CAST(? AS "
        + parameterTypeName
        + "[])) WITH ORDINALITY"
        + " AS gantry_key(v, n) CROSS JOIN LATERAL (SELECT * FROM ("
        + inner
        + "\n) AS gantry_inner OFFSET 0)"
        + " AS gantry_rows";
  }

  /**
   * Index of the one parameter marker, or -1 (none, several, or text this scanner does not know).
   */
  static int onlyParameter(String sql) {
    int found = -1;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = sql.indexOf(c, i + 1);
        while (end >= 0 && end + 1 < n && sql.charAt(end + 1) == c) {
          end = sql.indexOf(c, end + 2);
        }
        if (end < 0) {
          return -1;
        }
        i = end + 1;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        if (end < 0) {
          return -1;
        }
        i = end + 2;
      } else if (c == '$'
          || c == ';'
          || c == '\\'
          || (c == 'E' && i + 1 < n && sql.charAt(i + 1) == '\'')) {
        return -1; // dollar quotes, escape strings, several statements: leave to the general path
      } else if (c == '?') {
        if (found >= 0 || (i + 1 < n && (sql.charAt(i + 1) == '|' || sql.charAt(i + 1) == '&'))) {
          return -1;
        }
        found = i;
        i++;
      } else {
        i++;
      }
    }
    return found;
  }
}
