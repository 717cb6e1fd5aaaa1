package io.gantry.server.internal.jobstore;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The user accounts in the job store (table {@code gantry_user}): kept beside the jobs so that a
 * shared PostgreSQL deployment has one place for both, and every server sharing it knows the same
 * users.
 */
public final class UserAccounts {
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  private final Transactor tx;

  UserAccounts(Transactor tx) {
    this.tx = tx;
  }

  public Optional<UserAccount> find(String name) {
    return tx.read(
        "read user " + name,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT name, role, password_hash FROM gantry_user WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(account(rs)) : Optional.empty();
            }
          }
        });
  }

  /** Every account, by name. */
  public List<UserAccount> list() {
    return tx.read(
        "list users",
        c -> {
          List<UserAccount> all = new ArrayList<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT name, role, password_hash FROM gantry_user ORDER BY name");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              all.add(account(rs));
            }
          }
          return all;
        });
  }

  /** Adds an account; false if the name is taken. */
  public boolean add(UserAccount account) {
    return tx.write(
        "add user " + account.name(),
        c -> {
          if (exists(c, account.name())) {
            return false;
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO gantry_user (name, role, password_hash, created_at, user_id)"
                      + " VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, account.name());
            ps.setString(2, account.role().value());
            ps.setString(3, account.passwordHash());
            JobRows.setInstant(ps, 4, Instant.now());
            ps.setString(5, newUserId());
            ps.executeUpdate();
          }
          return true;
        });
  }

  /** Replaces the password hash; false if there is no such user. */
  public boolean changePassword(String name, String passwordHash) {
    return tx.write(
        "change the password of user " + name,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("UPDATE gantry_user SET password_hash = ? WHERE name = ?")) {
            ps.setString(1, passwordHash);
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /**
   * Replaces the password hash of {@code name} by another of the same password (a stronger form)
   * only if it is still {@code expected}; false if it changed meanwhile (or the user is gone). In
   * the same transaction the user's session tokens stamped with the old hash are stamped with the
   * new one: the password did not change, so neither do the sessions it opened.
   */
  public boolean replacePasswordHash(String name, String expected, String passwordHash) {
    return tx.write(
        "replace the password hash of user " + name,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE gantry_user SET password_hash = ? WHERE name = ? AND password_hash = ?")) {
            ps.setString(1, passwordHash);
            ps.setString(2, name);
            ps.setString(3, expected);
            if (ps.executeUpdate() != 1) {
              return false;
            }
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE gantry_session_token SET password_stamp = ?"
                      + " WHERE user_name = ? AND password_stamp = ?")) {
            ps.setString(1, SessionTokens.passwordStamp(passwordHash));
            ps.setString(2, name);
            ps.setString(3, SessionTokens.passwordStamp(expected));
            ps.executeUpdate();
          }
          return true;
        });
  }

  /**
   * Removes an account; false if there is no such user. In the same transaction its schedules are
   * removed and its session tokens go (foreign key). Its jobs stay for the audit trail, owned by
   * its user id, which no later user gets: they are shown to administrators as the name followed by
   * " (removed user)", and a later user of the same name neither sees nor acts on them.
   */
  public boolean remove(String name) {
    return tx.write(
        "remove user " + name,
        c -> {
          String id;
          try (PreparedStatement ps =
              c.prepareStatement("SELECT user_id FROM gantry_user WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return false;
              }
              id = rs.getString(1);
            }
          }
          NotifySubscriptions.removeAllOf(c, id);
          ScheduleStore.removeAllOf(c, id);
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM gantry_user WHERE user_id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /** A new user's immutable id: 128 random bits, never reused (job store V15). */
  private static String newUserId() {
    byte[] bits = new byte[16];
    RANDOM.nextBytes(bits);
    return java.util.HexFormat.of().formatHex(bits);
  }

  /**
   * The OS account the user's jobs run under, if one is mapped; empty for no such user or none
   * mapped (then the server's jobs.default-os-account applies).
   */
  public Optional<String> osAccount(String name) {
    return tx.read(
        "read the OS account of user " + name,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT os_account FROM gantry_user WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  /** Every user's mapped OS account; users without one are left out. */
  public java.util.Map<String, String> osAccounts() {
    return tx.read(
        "list OS accounts",
        c -> {
          java.util.Map<String, String> all = new java.util.TreeMap<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT name, os_account FROM gantry_user WHERE os_account IS NOT NULL");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              all.put(rs.getString(1), rs.getString(2));
            }
          }
          return all;
        });
  }

  /** Changes the user's role; false if there is no such user. */
  public boolean setRole(String name, UserAccount.Role role) {
    return tx.write(
        "set the role of user " + name,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("UPDATE gantry_user SET role = ? WHERE name = ?")) {
            ps.setString(1, role.value());
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /** Maps the user to an OS account, or back to the default with null; false if no such user. */
  public boolean setOsAccount(String name, String osAccount) {
    return tx.write(
        "set the OS account of user " + name,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("UPDATE gantry_user SET os_account = ? WHERE name = ?")) {
            ps.setString(1, osAccount);
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
          }
        });
  }

  public boolean isEmpty() {
    return tx.read(
        "count users",
        c -> {
          try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM gantry_user");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1) == 0;
          }
        });
  }

  private static boolean exists(java.sql.Connection c, String name) throws java.sql.SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM gantry_user WHERE name = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static UserAccount account(ResultSet rs) throws java.sql.SQLException {
    return new UserAccount(rs.getString(1), UserAccount.Role.of(rs.getString(2)), rs.getString(3));
  }
}
