package io.gantry.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain left-aligned table with a header row, columns two spaces apart, as ps and kubectl print. */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  TextTable row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException("a row of " + columns + " cells expected, not " + cells.length);
    }
    String[] text = new String[columns];
    for (int i = 0; i < columns; i++) {
      text[i] = cells[i] == null ? "-" : cells[i].toString().replace('\n', ' ');
    }
    rows.add(text);
    return this;
  }

  int size() {
    return rows.size() - 1;
  }

  void print(PrintWriter out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
