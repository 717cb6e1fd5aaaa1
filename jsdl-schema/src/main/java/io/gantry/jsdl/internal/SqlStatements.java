package io.gantry.jsdl.internal;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * Staging SQL read by a real SQL parser (JSqlParser), so that what runs is what was checked:
 *
 * <ol>
 *   <li>The text is exactly one statement; comments and quotes are the parser's business, so {@code
 *       SELECT 1; DROP ...} or a second statement hidden behind a comment is two statements and
 *       refused. Text the parser cannot read is refused too (fail closed).
 *   <li>A stage-in statement is a query (SELECT, WITH ... SELECT, VALUES), with no {@code SELECT
 *       ... INTO} and no {@code FOR UPDATE}; a stage-out statement is one INSERT, UPDATE, MERGE or
 *       DELETE.
 *   <li>Every node of the parsed tree is visited, by reflection over the parser's own objects, not
 *       by a visitor that might skip a kind of node: no statement hides inside another (a
 *       data-modifying WITH), no sequence is advanced, and every function called anywhere is on the
 *       allow-list of {@link SqlFunctions}.
 * </ol>
 */
final class SqlStatements {
  /** The purpose of a statement: what kind of root it must have. */
  enum Kind {
    QUERY("stage-in SQL must be exactly one query: SELECT, WITH ... SELECT or VALUES"),
    UPDATE("stage-out SQL must be exactly one INSERT, UPDATE, MERGE or DELETE");

    final String rule;

    Kind(String rule) {
      this.rule = rule;
    }
  }

  /** Enough for any real query; a tree larger than this is refused rather than walked forever. */
  private static final int MAX_NODES = 200_000;

  private SqlStatements() {}

  /** Why {@code sql} may not run as {@code kind}, or empty when it may. */
  static Optional<String> problem(String sql, Kind kind, Set<String> extraFunctions) {
    Statements statements;
    try {
      statements = CCJSqlParserUtil.parseStatements(sql, parser -> parser.withTimeOut(5_000));
    } catch (JSQLParserException e) {
      return Optional.of("cannot be read as SQL (" + firstLine(e) + "); " + kind.rule);
    } catch (RuntimeException e) {
      return Optional.of(
          "cannot be read as SQL (" + e.getClass().getSimpleName() + "); " + kind.rule);
    }
    if (statements == null || statements.size() != 1) {
      int count = statements == null ? 0 : statements.size();
      return Optional.of("holds " + count + " statements; " + kind.rule);
    }
    Statement root = statements.get(0);
    Optional<String> wrongRoot = rootProblem(root, kind);
    if (wrongRoot.isPresent()) {
      return wrongRoot;
    }
    return new Walk(root, extraFunctions).problem();
  }

  private static Optional<String> rootProblem(Statement root, Kind kind) {
    boolean fits =
        kind == Kind.QUERY
            ? root instanceof Select
            : root instanceof Insert
                || root instanceof Update
                || root instanceof Delete
                || root instanceof Merge
                || root instanceof Upsert;
    if (!fits) {
      return Optional.of("is a " + describe(root) + " statement; " + kind.rule);
    }
    return Optional.empty();
  }

  private static String describe(Statement statement) {
    String simple = statement.getClass().getSimpleName();
    String text = statement.toString().strip();
    int space = text.indexOf(' ');
    String keyword = space > 0 ? text.substring(0, space) : text;
    return keyword.matches("[A-Za-z]+") ? keyword.toUpperCase(java.util.Locale.ROOT) : simple;
  }

  private static String firstLine(Exception e) {
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    String message = String.valueOf(cause.getMessage()).strip();
    int end = message.indexOf('\n');
    message = end > 0 ? message.substring(0, end) : message;
    return message.length() > 160 ? message.substring(0, 160) + "..." : message;
  }

  /** A walk over every object of the parsed tree, stopping at the first problem. */
  private static final class Walk {
    private final Statement root;
    private final Set<String> extraFunctions;
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Deque<Object> pending = new ArrayDeque<>();

    Walk(Statement root, Set<String> extraFunctions) {
      this.root = root;
      this.extraFunctions = extraFunctions;
    }

    /**
     * The first problem found, preferring one that says why (a denied function) to "not allowed".
     */
    Optional<String> problem() {
      pending.push(root);
      Optional<String> first = Optional.empty();
      while (!pending.isEmpty()) {
        Object node = pending.pop();
        if (seen.size() > MAX_NODES) {
          return Optional.of("is too large to check (more than " + MAX_NODES + " parts)");
        }
        Optional<String> problem = check(node);
        if (problem.isPresent() && !problem.get().contains(SqlFunctions.NOT_ALLOWED)) {
          return problem;
        }
        first = first.isPresent() ? first : problem;
        children(node);
      }
      return first;
    }

    private Optional<String> check(Object node) {
      if (node instanceof Function f) {
        return SqlFunctions.problem(
            f.getName() == null ? "(unnamed)" : f.getName(), extraFunctions);
      }
      if (node instanceof AnalyticExpression a) {
        return SqlFunctions.problem(a.getName(), extraFunctions);
      }
      if (node instanceof NextValExpression) {
        return Optional.of("advances a sequence (NEXT VALUE FOR), which changes the database");
      }
      if (node instanceof PlainSelect p
          && p.getIntoTables() != null
          && !p.getIntoTables().isEmpty()) {
        return Optional.of("uses SELECT ... INTO, which creates a table");
      }
      if (node instanceof Select s && s.getForMode() != null) {
        return Optional.of(
            "locks rows (FOR " + s.getForMode() + "); staging SQL only reads or writes rows");
      }
      if (node instanceof Statement s && node != root && !(node instanceof Select)) {
        return Optional.of(
            "holds a "
                + describe(s)
                + " statement inside another one; only the outer"
                + " statement may change data");
      }
      return Optional.empty();
    }

    private void children(Object node) {
      if (node instanceof Collection<?> items) {
        items.forEach(this::add);
        return;
      }
      if (node instanceof Map<?, ?> map) {
        map.keySet().forEach(this::add);
        map.values().forEach(this::add);
        return;
      }
      if (node.getClass().isArray()) {
        if (!node.getClass().getComponentType().isPrimitive()) {
          for (int i = 0; i < Array.getLength(node); i++) {
            add(Array.get(node, i));
          }
        }
        return;
      }
      for (Class<?> c = node.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
            try {
              field.setAccessible(true);
              add(field.get(node));
            } catch (ReflectiveOperationException | RuntimeException e) {
              throw new IllegalStateException(
                  "cannot inspect " + c.getName() + "." + field.getName(), e);
            }
          }
        }
      }
    }

    /**
     * Follows the parser's tree objects and containers; skips the parser's tokens and plain values.
     */
    private void add(Object child) {
      if (child == null || child instanceof Enum<?> || seen.contains(child)) {
        return;
      }
      boolean container =
          child instanceof Collection<?>
              || child instanceof Map<?, ?>
              || child.getClass().isArray();
      String name = child.getClass().getName();
      boolean tree =
          name.startsWith("net.sf.jsqlparser.") && !name.startsWith("net.sf.jsqlparser.parser.");
      if (container || tree) {
        seen.add(child);
        pending.push(child);
      }
    }
  }
}
