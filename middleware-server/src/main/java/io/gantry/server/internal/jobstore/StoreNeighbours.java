package io.gantry.server.internal.jobstore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * Whether a server about to start on an empty job store left its data in another kind of store: the
 * H2 store its data directory holds by default, when the server is now configured with another
 * database (PostgreSQL). Starting would make a new first administrator and show no users, jobs or
 * schedules, as if they were lost (docs/operations.md, "Moving the job store").
 */
public final class StoreNeighbours {
  private StoreNeighbours() {}

  /**
   * Why the server must not start on {@code configured}, or empty.
   *
   * @param configuredUrl the configured store's JDBC URL (never shown: it may carry a password)
   * @param h2Base the data directory's default H2 store, without {@code .mv.db}
   */
  public static Optional<String> leftBehind(
      JdbcJobStore configured, String configuredUrl, Path h2Base) {
    Path file = Path.of(h2Base + ".mv.db");
    if (configuredUrl.startsWith("jdbc:h2:") || !Files.exists(file) || configured.holdsData()) {
      return Optional.empty();
    }
    String held;
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:h2:file:" + h2Base.toAbsolutePath() + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE",
                "gantry",
                "");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT (SELECT COUNT(*) FROM gantry_user), (SELECT COUNT(*) FROM gantry_job)")) {
      rs.next();
      if (rs.getLong(1) + rs.getLong(2) == 0) {
        return Optional.empty();
      }
      held = "holds " + rs.getLong(1) + " users and " + rs.getLong(2) + " jobs";
    } catch (SQLException e) {
      held = "could not be read (" + e.getMessage().lines().findFirst().orElse("") + ")";
    }
    return Optional.of(
        "the configured job store is empty, but the data directory's H2 job store "
            + file
            + " "
            + held
            + "; this server would start without them. Move them into the configured store"
            + " first (docs/operations.md, \"Moving the job store\"), or, to start empty on"
            + " purpose, move "
            + file
            + " out of the data directory");
  }
}
