package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.Owners;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The session tokens in the job store (table {@code gantry_session_token}), by their public id and
 * by the SHA-256 of their secret; the secret itself is never stored. Kept beside the users so that
 * every server sharing a PostgreSQL store accepts the same tokens, and a user's removal removes
 * them (a foreign key with ON DELETE CASCADE).
 */
public final class SessionTokens {
  private static final String COLUMNS =
      "id, user_name, password_stamp, description, created_at, expires_at";

  /** The token's user is the one it was issued to (job store V15), not a later one of the name. */
  private static final String BOUND =
      " AND gantry_session_token.user_id = (SELECT u.user_id FROM gantry_user u"
          + " WHERE u.name = gantry_session_token.user_name)";

  private final Transactor tx;

  SessionTokens(Transactor tx) {
    this.tx = tx;
  }

  /**
   * What a token keeps of its user's password hash when issued (the hash's SHA-256, hex): a token
   * whose stamp no longer matches the stored hash was issued before the password changed.
   */
  public static String passwordStamp(String passwordHash) {
    try {
      return java.util.HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256")
                  .digest(passwordHash.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** A stored token: never its secret, only what it is and whose. */
  public record StoredToken(
      String id,
      String user,
      String passwordStamp,
      String description,
      Instant created,
      Instant expires) {}

  /** Stores a new token under the hash of its secret; drops the user's expired tokens. */
  public void add(StoredToken token, String secretHash) {
    tx.write(
        "store a session token of user " + token.user(),
        c -> {
          deleteExpired(c, token.user(), token.created());
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO gantry_session_token (token_hash, "
                      + COLUMNS
                      + ", user_id) VALUES (?, ?, ?, ?, ?, ?, ?, "
                      + Owners.ID_OF_NAMED
                      + ")")) {
            ps.setString(1, secretHash);
            ps.setString(2, token.id());
            ps.setString(3, token.user());
            ps.setString(4, token.passwordStamp());
            ps.setString(5, token.description());
            JobRows.setInstant(ps, 6, token.created());
            JobRows.setInstant(ps, 7, token.expires());
            ps.setString(8, token.user());
            ps.executeUpdate();
          }
          return null;
        });
  }

  /** The token whose secret has this hash, expired or not. */
  public Optional<StoredToken> findByHash(String secretHash) {
    return tx.read(
        "read a session token",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM gantry_session_token WHERE token_hash = ?"
                      + BOUND)) {
            ps.setString(1, secretHash);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(token(rs)) : Optional.empty();
            }
          }
        });
  }

  /** The tokens of {@code user} (null: everyone's) that have not expired at {@code now}. */
  public List<StoredToken> list(String user, Instant now) {
    return tx.read(
        "list session tokens",
        c -> {
          String sql =
              "SELECT "
                  + COLUMNS
                  + " FROM gantry_session_token WHERE expires_at > ?"
                  + BOUND
                  + (user == null ? "" : " AND user_name = ?")
                  + " ORDER BY user_name, created_at";
          List<StoredToken> all = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            JobRows.setInstant(ps, 1, now);
            if (user != null) {
              ps.setString(2, user);
            }
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                all.add(token(rs));
              }
            }
          }
          return all;
        });
  }

  /**
   * Removes the token with this id, if {@code user} owns it (null: whoever does); false if none.
   */
  public boolean remove(String id, String user) {
    return tx.write(
        "revoke session token " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "DELETE FROM gantry_session_token WHERE id = ?"
                      + (user == null ? "" : " AND user_name = ?"))) {
            ps.setString(1, id);
            if (user != null) {
              ps.setString(2, user);
            }
            return ps.executeUpdate() == 1;
          }
        });
  }

  private static void deleteExpired(Connection c, String user, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM gantry_session_token WHERE user_name = ? AND expires_at <= ?")) {
      ps.setString(1, user);
      JobRows.setInstant(ps, 2, now);
      ps.executeUpdate();
    }
  }

  private static StoredToken token(ResultSet rs) throws SQLException {
    return new StoredToken(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getObject(5, OffsetDateTime.class).toInstant(),
        rs.getObject(6, OffsetDateTime.class).toInstant());
  }
}
