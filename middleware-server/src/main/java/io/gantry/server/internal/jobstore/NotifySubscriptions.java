package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.Owners;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The standing notification subscriptions (table {@code gantry_notify_subscription}, job store
 * V24), bound to their owner's immutable user id as schedules are: a removed user's go with the
 * user, and a schedule's go with the schedule.
 */
public final class NotifySubscriptions {
  private static final String SELECTED =
      "s.id, "
          + Owners.presented("s")
          + ", s.schedule_id, g.name, s.target, s.events, s.created_at"
          + " FROM gantry_notify_subscription s"
          + " LEFT JOIN gantry_schedule g ON g.id = s.schedule_id ";

  private final Transactor tx;

  NotifySubscriptions(Transactor tx) {
    this.tx = tx;
  }

  public void add(NotifySubscription s) {
    tx.write(
        "add a notification subscription of " + s.owner(),
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO gantry_notify_subscription (id, owner, owner_id, schedule_id,"
                      + " target, events, created_at) VALUES (?, ?, "
                      + Owners.ID_OF_NAMED
                      + ", ?, ?, ?, ?)")) {
            ps.setString(1, s.id());
            ps.setString(2, s.owner());
            ps.setString(3, s.owner());
            ps.setString(4, s.scheduleId());
            ps.setString(5, s.target());
            ps.setString(6, String.join(" ", s.events()));
            JobRows.setInstant(ps, 7, s.createdAt());
            return ps.executeUpdate();
          }
        });
  }

  /** The owner's subscriptions, or every one (by owner) for a null owner. */
  public List<NotifySubscription> list(String owner) {
    return tx.read(
        "list notification subscriptions",
        c ->
            owner == null
                ? select(c, "ORDER BY s.owner, s.created_at, s.id")
                : select(c, "WHERE " + ownedBy() + " ORDER BY s.created_at, s.id", owner, owner));
  }

  public boolean remove(String id) {
    return tx.write(
        "remove notification subscription " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM gantry_notify_subscription WHERE id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /** Removes every subscription of the user with this id, in the caller's transaction. */
  static int removeAllOf(Connection c, String userId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM gantry_notify_subscription WHERE owner_id = ?")) {
      ps.setString(1, userId);
      return ps.executeUpdate();
    }
  }

  /** A condition on alias {@code s}: owned by the user called {@code ?} now (two parameters). */
  private static String ownedBy() {
    return Owners.ownedByNamed("s");
  }

  private static List<NotifySubscription> select(Connection c, String where, String... args)
      throws SQLException {
    List<NotifySubscription> found = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT " + SELECTED + where)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.add(
              new NotifySubscription(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  Arrays.asList(rs.getString(6).split(" ")),
                  rs.getObject(7, OffsetDateTime.class).toInstant()));
        }
      }
    }
    return found;
  }
}
