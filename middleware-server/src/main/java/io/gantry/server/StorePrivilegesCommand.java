package io.gantry.server;

import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server store privileges}: the SQL a PostgreSQL administrator runs once to make the
 * job store's account and database. The account owns its database's schema because the server
 * migrates the schema itself at each start after an upgrade (CREATE/ALTER TABLE, CREATE INDEX); it
 * needs nothing beyond that database. Needs no configuration and touches no database.
 */
@Command(
    name = "privileges",
    mixinStandardHelpOptions = true,
    description = {
      "Print the SQL that makes the job store's PostgreSQL account and database, for a"
          + " superuser to run once with psql (docs/operations.md, \"The store's database"
          + " account\")."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:printed", "2:bad command line"})
final class StorePrivilegesCommand implements Callable<Integer> {
  private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  @Spec CommandSpec spec;

  @Option(
      names = "--user",
      paramLabel = "ROLE",
      defaultValue = "gantry",
      description = "the account gantry-server connects as (store.user; default gantry)")
  String user;

  @Option(
      names = "--database",
      paramLabel = "DB",
      defaultValue = "gantry",
      description = "the database of store.url (default gantry)")
  String database;

  @Override
  public Integer call() {
    for (String name : new String[] {user, database}) {
      if (!NAME.matcher(name).matches()) {
        spec.commandLine()
            .getErr()
            .println(
                "gantry-server store privileges: '"
                    + name
                    + "' is not a plain PostgreSQL name (lower-case letters, digits, _)");
        return 2;
      }
    }
    spec.commandLine().getOut().print(script(user, database));
    spec.commandLine().getOut().flush();
    return 0;
  }

  /**
   * The script, with a psql {@code \connect} line between the cluster's part and the database's.
   */
  static String script(String user, String database) {
    return String.join(
        "\n",
        "-- The job store's account for gantry-server: run once as a PostgreSQL superuser,",
        "--   psql -v ON_ERROR_STOP=1 -f gantry-store.sql",
        "-- then set its password (\\password " + user + ") and give it to the server in",
        "-- store.password-file. The account owns its database's public schema: each start",
        "-- of a new gantry-server version applies that version's schema migrations there",
        "-- (CREATE TABLE, ALTER TABLE, CREATE INDEX), then reads and writes rows. It is no",
        "-- superuser, creates no database or role, and has no right in other databases.",
        "CREATE ROLE " + user + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;",
        "CREATE DATABASE " + database + " OWNER " + user + ";",
        "REVOKE ALL ON DATABASE " + database + " FROM PUBLIC;",
        "GRANT CONNECT, TEMPORARY ON DATABASE " + database + " TO " + user + ";",
        "\\connect " + database,
        "ALTER SCHEMA public OWNER TO " + user + ";",
        "REVOKE ALL ON SCHEMA public FROM PUBLIC;",
        "");
  }
}
