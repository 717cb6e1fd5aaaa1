package io.gantry.server.internal.jobstore.transfer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A table's row count and checksum. The checksum is SHA-256 over the sorted SHA-256 digests of its
 * rows, each row digested as its columns' names and canonical values ({@link StoredValues}), every
 * one preceded by its length. Sorting the row digests makes it independent of the order the rows
 * come in: H2 and PostgreSQL sort text differently (PostgreSQL by its collation).
 */
final class TableDigest {
  private final List<String> rows = new ArrayList<>();

  void addRow(List<String> columns, List<Object> values) {
    MessageDigest row = sha256();
    for (int i = 0; i < columns.size(); i++) {
      field(row, columns.get(i));
      field(row, StoredValues.canonical(values.get(i)));
    }
    rows.add(HexFormat.of().formatHex(row.digest()));
  }

  /** The count and checksum of the rows added so far. */
  StoreSummary.Table summary(String table) {
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort(null);
    MessageDigest all = sha256();
    for (String r : sorted) {
      all.update(r.getBytes(StandardCharsets.US_ASCII));
    }
    return new StoreSummary.Table(table, rows.size(), HexFormat.of().formatHex(all.digest()));
  }

  private static void field(MessageDigest d, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    d.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    d.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
