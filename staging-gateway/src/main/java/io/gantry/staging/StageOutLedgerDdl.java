package io.gantry.staging;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The stage-out ledger's DDL and grants, for a DBA to run once in each database that jobs stage out
 * to. Stage-out creates the table itself when its user may; in a database where several users stage
 * out, the first one would own it and the others get "permission denied", so the table is better
 * created by the schema's owner with grants to every stage-out user.
 *
 * <p>One definition: the gateway creates the table with {@link #CREATE_TABLE}, and {@code
 * gantry-server ledger-ddl} prints it with {@link #script}.
 */
public final class StageOutLedgerDdl {
  /** The ledger table's name. */
  public static final String TABLE = "gantry_stage_out_ledger";

  /** Portable DDL (H2 2.x and PostgreSQL): one row per committed step of a job. */
  public static final String CREATE_TABLE =
      "CREATE TABLE IF NOT EXISTS "
          + TABLE
          + " (job_id VARCHAR(64) NOT NULL, step_key VARCHAR(64) NOT NULL,"
          + " file_checksum VARCHAR(64) NOT NULL, row_count BIGINT NOT NULL, committed_at TIMESTAMP NOT NULL,"
          + " PRIMARY KEY (job_id, step_key))";

  /** What a stage-out user needs on the ledger: find a step's entry, add one. */
  public static final String PRIVILEGES = "SELECT, INSERT";

  /** The command an operator runs to get the statements. */
  public static final String COMMAND = "gantry-server ledger-ddl";

  private static final Pattern USER_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]{0,62}");

  public enum Dialect {
    POSTGRESQL,
    H2;

    public static Dialect of(String name) {
      try {
        return valueOf(name.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown dialect '" + name + "'; use postgresql or h2", e);
      }
    }
  }

  private StageOutLedgerDdl() {}

  /**
   * The statements, one per line and each ending with {@code ;}, with comments saying who runs
   * them: the table, then {@link #PRIVILEGES} for each of {@code users} (plain SQL identifiers), or
   * a commented-out grant to fill in when there are none.
   */
  public static String script(Dialect dialect, List<String> users) {
    for (String user : users) {
      if (!USER_NAME.matcher(user).matches()) {
        throw new IllegalArgumentException(
            "'" + user + "' is not a plain SQL user name (letters, digits, _ and $)");
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add(
        "-- Gantry stage-out ledger ("
            + dialect.name().toLowerCase(Locale.ROOT)
            + "): run once, as the owner of");
    lines.add("-- the schema that the result tables are in, in every database jobs stage out to.");
    lines.add(CREATE_TABLE + ";");
    if (dialect == Dialect.POSTGRESQL) {
      lines.add("REVOKE ALL ON " + TABLE + " FROM PUBLIC;");
    }
    lines.add(
        "-- each database user that stage-out connects as (datasource.NAME.user, or an inline UserId):");
    if (users.isEmpty()) {
      lines.add("-- GRANT " + PRIVILEGES + " ON " + TABLE + " TO stage_out_user;");
    }
    for (String user : users) {
      lines.add("GRANT " + PRIVILEGES + " ON " + TABLE + " TO " + user + ";");
    }
    return String.join("\n", lines) + "\n";
  }

  /**
   * The message for a stage-out whose user finds no ledger it can use and cannot create one.
   *
   * @param databaseMessage what the database said, e.g. "permission denied for schema public"
   */
  public static String missingMessage(String databaseMessage) {
    return "the stage-out ledger table "
        + TABLE
        + " is missing or this data source's user may not use it, and"
        + " the user cannot create it ("
        + databaseMessage
        + "); have the database's administrator create it"
        + " and grant "
        + PRIVILEGES
        + " on it to this user, with the statements that '"
        + COMMAND
        + " --dialect postgresql' (or h2) prints";
  }
}
