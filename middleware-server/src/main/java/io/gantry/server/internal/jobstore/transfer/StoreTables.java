package io.gantry.server.internal.jobstore.transfer;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The job store's tables as the database itself lists them, so that a table a later migration adds
 * is moved without a change here; in an order where every table comes after the tables its foreign
 * keys refer to, so that rows can be inserted table by table.
 */
final class StoreTables {
  /** Flyway's record of the migrations: each store keeps its own, made when it was migrated. */
  static final String HISTORY = "gantry_schema_version";

  /** The storage watch's probe row: written by every start, not data to move. */
  static final String PROBE = "gantry_storage_probe";

  private StoreTables() {}

  /** The names (lower case) of the tables that hold the store's data, parents first. */
  static List<String> inInsertOrder(Connection c) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    Map<String, String> actual = new LinkedHashMap<>(); // lower-case name -> name as stored
    try (ResultSet rs = meta.getTables(null, c.getSchema(), "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        String name = rs.getString("TABLE_NAME");
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("gantry_") && !lower.equals(HISTORY) && !lower.equals(PROBE)) {
          actual.put(lower, name);
        }
      }
    }
    Map<String, Set<String>> parents = new LinkedHashMap<>();
    for (Map.Entry<String, String> t : actual.entrySet()) {
      Set<String> refs = new LinkedHashSet<>();
      try (ResultSet rs = meta.getImportedKeys(null, c.getSchema(), t.getValue())) {
        while (rs.next()) {
          String parent = rs.getString("PKTABLE_NAME").toLowerCase(Locale.ROOT);
          if (!parent.equals(t.getKey())) {
            refs.add(parent);
          }
        }
      }
      parents.put(t.getKey(), refs);
    }
    List<String> ordered = new ArrayList<>();
    List<String> names = new ArrayList<>(actual.keySet());
    names.sort(null); // the same order on every database, whatever its catalogue's
    while (ordered.size() < names.size()) {
      boolean added = false;
      for (String name : names) {
        if (!ordered.contains(name) && ordered.containsAll(parents.get(name))) {
          ordered.add(name);
          added = true;
        }
      }
      if (!added) {
        throw new SQLException("the job store's tables refer to each other in a cycle: " + parents);
      }
    }
    return ordered;
  }
}
