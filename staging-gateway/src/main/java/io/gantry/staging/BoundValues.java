package io.gantry.staging;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Values bound to some of a statement's {@code ?} markers for every execution: a job template's
 * parameters ({@code ${name}} in the job's SQL). The other markers take the columns of each input
 * row, in order. Values are bound as JDBC parameters, converted to each marker's SQL type like a
 * CSV field, and never become part of the SQL text.
 *
 * @param byMarker marker number (from 1, counting every {@code ?} of the statement) to value
 */
public record BoundValues(SortedMap<Integer, String> byMarker) {
  /** No value bound: every marker takes an input column. */
  public static final BoundValues NONE = new BoundValues(Collections.emptySortedMap());

  public BoundValues {
    byMarker = Collections.unmodifiableSortedMap(new TreeMap<>(byMarker));
    for (Map.Entry<Integer, String> e : byMarker.entrySet()) {
      if (e.getKey() < 1 || e.getValue() == null) {
        throw new IllegalArgumentException("bound marker " + e.getKey() + " has no value");
      }
    }
  }

  public boolean isEmpty() {
    return byMarker.isEmpty();
  }

  /** How many markers the values fill. */
  public int count() {
    return byMarker.size();
  }

  /**
   * One execution's parameters: the bound values at their markers, the row's fields, in order, at
   * the others. {@code markers} is the statement's whole count.
   */
  public String[] merge(String[] row, int markers) {
    if (byMarker.isEmpty()) {
      return row;
    }
    String[] all = new String[Math.max(markers, row.length + byMarker.size())];
    int next = 0;
    for (int i = 0; i < all.length; i++) {
      String bound = byMarker.get(i + 1);
      all[i] = bound != null ? bound : next < row.length ? row[next++] : null;
    }
    return all;
  }
}
