package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.OutboxRows;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The notification outbox (docs/operations.md, "Notifications"): events written with the changes
 * they report (job events by {@link JdbcJobStore}, others by {@link #publish}), read by the
 * delivery thread, which records each target that confirmed an event and when an event is done.
 */
public final class Outbox {
  private final Transactor tx;
  private final Clock clock;

  Outbox(Transactor tx, Clock clock) {
    this.tx = tx;
    this.clock = clock;
  }

  /**
   * The hook other features publish to (e.g. a VaR limit breach): stores an event of {@code type}
   * (a reverse-DNS name such as {@code io.gantry.var.limit-breached}) in its own transaction.
   *
   * @param subject what the event is about (a job id), or null
   * @param owner the user it concerns, whose subscriptions receive it, or null
   */
  public void publish(String type, String subject, String owner, JsonObject data) {
    checkType(type);
    Instant now = now();
    tx.write(
        "publish a " + type + " event",
        c -> {
          OutboxRows.insert(c, type, subject, owner, now, data.toString());
          return null;
        });
  }

  /**
   * Like {@link #publish}, once for {@code key}: the event's id is derived from its type and key (a
   * name-based UUID), and an event already in the outbox with that id is not written again. A
   * feature that may publish the same fact twice (again after a restart) passes a key that names
   * the fact; receivers see one id for it. An event purged from the outbox (done, older than {@code
   * notify.max-age}) is no longer known here.
   *
   * @return whether the event was written (false: it was published before)
   */
  public boolean publishOnce(
      String type, String key, String subject, String owner, JsonObject data) {
    checkType(type);
    String id =
        UUID.nameUUIDFromBytes((type + "\n" + key).getBytes(StandardCharsets.UTF_8)).toString();
    Instant now = now();
    return tx.write(
        "publish a " + type + " event",
        c -> {
          if (OutboxRows.exists(c, id)) {
            return false;
          }
          OutboxRows.insert(c, id, type, subject, owner, now, data.toString());
          return true;
        });
  }

  private static void checkType(String type) {
    if (type == null || !type.matches("[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)+")) {
      throw new IllegalArgumentException(
          "an event type is a dotted lower-case name such as io.gantry.var.limit-breached, not "
              + type);
    }
  }

  /**
   * Calls {@code listener} after each durable commit of the job store, which may have written
   * events: the delivery thread's wake-up. Returns what removes the listener again.
   */
  public Runnable onWrite(Runnable listener) {
    return tx.afterWrite(listener);
  }

  /** Undelivered events whose next attempt is due, oldest first. */
  public List<OutboxEvent> due(int limit) {
    Instant now = now();
    return tx.read(
        "read the due notifications",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT seq, id, type, subject, owner, occurred_at, data, attempts"
                      + " FROM gantry_outbox WHERE done_at IS NULL AND next_attempt_at <= ?"
                      + " ORDER BY seq LIMIT ?")) {
            JobRows.setInstant(ps, 1, now);
            ps.setInt(2, limit);
            List<OutboxEvent> events = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                events.add(
                    new OutboxEvent(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getObject(6, OffsetDateTime.class).toInstant(),
                        rs.getString(7),
                        rs.getInt(8)));
              }
            }
            return events;
          }
        });
  }

  /** The targets (by the SHA-256 of their URL or address) that confirmed event {@code seq}. */
  public Set<String> confirmedTargets(long seq) {
    return tx.read(
        "read the confirmed targets of notification " + seq,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT target_hash FROM gantry_outbox_sent WHERE event_seq = ?")) {
            ps.setLong(1, seq);
            Set<String> hashes = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                hashes.add(rs.getString(1));
              }
            }
            return hashes;
          }
        });
  }

  /** Records that the target {@code targetHash} confirmed event {@code seq}. */
  public void confirmed(long seq, String targetHash) {
    update(
        "INSERT INTO gantry_outbox_sent (event_seq, target_hash, sent_at) VALUES (?, ?, ?)",
        seq,
        targetHash,
        now());
  }

  /** A failed pass over event {@code seq}: tried again at {@code next}. */
  public void retryAt(long seq, int attempts, Instant next, String error) {
    update(
        "UPDATE gantry_outbox SET attempts = ?, next_attempt_at = ?, outcome = ? WHERE seq = ?",
        attempts,
        next.truncatedTo(ChronoUnit.MICROS),
        clip(error),
        seq);
  }

  /**
   * Events done, each with its outcome: every target confirmed it, or delivery gave up. One
   * transaction for them all (a pass over a hundred due events is one commit, not a hundred).
   *
   * <p>Not waited for on disk: every job event is done here (most with no receiver), and a sync for
   * each made a trivial job's events three of its six syncs, queued with the job's own on the
   * store's one sync at a time (JFR, middleware-server/bench/README.md). A crash that loses them
   * leaves the events due, and the next pass does them again: targets that confirmed one are
   * skipped ({@link #confirmed} is durable), so no receiver gets it twice; only a receiver whose
   * failures had given up is tried once more.
   */
  public void done(Map<Long, String> outcomes) {
    if (outcomes.isEmpty()) {
      return;
    }
    Instant at = now();
    tx.writeLazily(
        "mark " + outcomes.size() + " notification events done",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE gantry_outbox SET done_at = ?, outcome = ? WHERE seq = ?")) {
            for (Map.Entry<Long, String> e : outcomes.entrySet()) {
              JobRows.setInstant(ps, 1, at);
              ps.setString(2, clip(e.getValue()));
              ps.setLong(3, e.getKey());
              ps.addBatch();
            }
            ps.executeBatch();
          }
          return null;
        });
  }

  /** Events not yet done: the notification backlog. */
  public long backlog() {
    return tx.read(
        "count the notification backlog",
        c -> {
          try (PreparedStatement ps =
                  c.prepareStatement("SELECT COUNT(*) FROM gantry_outbox WHERE done_at IS NULL");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  /** Forgets events done before {@code before}; their confirmations go with them. */
  public void purgeDoneBefore(Instant before) {
    update("DELETE FROM gantry_outbox WHERE done_at < ?", before);
  }

  private void update(String sql, Object... params) {
    Transactor.Work<Object> work =
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
              if (params[i] instanceof Instant t) {
                JobRows.setInstant(ps, i + 1, t);
              } else {
                ps.setObject(i + 1, params[i]);
              }
            }
            return ps.executeUpdate();
          }
        };
    tx.write("update the notification outbox", work);
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  private static String clip(String text) {
    return text == null || text.length() <= 4000 ? text : text.substring(0, 3997) + "...";
  }
}
