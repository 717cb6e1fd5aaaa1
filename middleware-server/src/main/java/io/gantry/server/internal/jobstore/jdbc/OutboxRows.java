package io.gantry.server.internal.jobstore.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * Writes an outbox event inside the caller's transaction, so that it commits with the change it
 * reports or not at all (V16__notification_outbox.sql).
 */
public final class OutboxRows {
  /** Event data beyond this is cut: the column's size. */
  private static final int DATA_LIMIT = 8000;

  private OutboxRows() {}

  public static void insert(
      Connection c, String type, String subject, String owner, Instant at, String data)
      throws SQLException {
    insert(c, UUID.randomUUID().toString(), type, subject, owner, at, data);
  }

  /** Inserts an event with the CloudEvents id {@code id} (unique in the outbox). */
  public static void insert(
      Connection c, String id, String type, String subject, String owner, Instant at, String data)
      throws SQLException {
    if (data.length() > DATA_LIMIT) {
      throw new IllegalArgumentException(
          "the data of a "
              + type
              + " event is "
              + data.length()
              + " characters, over "
              + DATA_LIMIT);
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO gantry_outbox (id, type, subject, owner, occurred_at, data,"
                + " next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, id);
      ps.setString(2, type);
      ps.setString(3, subject);
      ps.setString(4, owner);
      JobRows.setInstant(ps, 5, at);
      ps.setString(6, data);
      JobRows.setInstant(ps, 7, at);
      ps.executeUpdate();
    }
  }

  /** Whether the outbox holds an event with the CloudEvents id {@code id}. */
  public static boolean exists(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM gantry_outbox WHERE id = ?")) {
      ps.setString(1, id);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
