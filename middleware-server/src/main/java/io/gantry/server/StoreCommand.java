package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.transfer.StoreCopy;
import io.gantry.server.internal.jobstore.transfer.StoreSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server store}: moving the job store between databases, and what a store holds
 * (docs/operations.md, "Moving the job store").
 */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    description =
        "Move the job store to another database, show what it holds, or print the SQL"
            + " that makes its PostgreSQL account.",
    subcommands = {
      StoreCommand.Migrate.class,
      StoreCommand.Checksums.class,
      StorePrivilegesCommand.class
    })
final class StoreCommand {
  @ParentCommand GantryServerCommand server;

  /** {@code store migrate}: copies the configured (or another) store into an empty database. */
  @Command(
      name = "migrate",
      mixinStandardHelpOptions = true,
      description = {
        "Copy every user, job (with its plan, parameters, audit trail and accounting), schedule,"
            + " token and subscription of the job store into an empty database of the same"
            + " schema version, H2 or PostgreSQL, and check the copy's row counts and checksums"
            + " against the source's before committing it. Stop the server first.",
        "The source is the configured store (store.url, or the data directory's H2 store)"
            + " unless --from names another."
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:copied, counts and checksums equal",
        "1:a database failed, or the copy did not match (nothing committed)",
        "2:bad command line or configuration; refused (target not empty, schema versions differ)"
      })
  static final class Migrate implements Callable<Integer> {
    @ParentCommand StoreCommand store;

    @Mixin ConfigurationOptions configuration;

    @Spec CommandSpec spec;

    @Option(
        names = "--from",
        paramLabel = "JDBC_URL",
        description = "the store to copy (default: the configured one)")
    String fromUrl;

    @Option(names = "--from-user", paramLabel = "USER", description = "default gantry")
    String fromUser = "gantry";

    @Option(
        names = "--from-password-file",
        paramLabel = "FILE",
        description = "a file holding --from's password (never give it on the command line)")
    Path fromPasswordFile;

    @Option(
        names = "--to",
        required = true,
        paramLabel = "JDBC_URL",
        description =
            "the empty database to copy into: jdbc:postgresql://HOST/DB or jdbc:h2:file:/PATH")
    String toUrl;

    @Option(names = "--to-user", paramLabel = "USER", description = "default gantry")
    String toUser = "gantry";

    @Option(
        names = "--to-password-file",
        paramLabel = "FILE",
        description = "a file holding --to's password (never give it on the command line)")
    Path toPasswordFile;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      JobStoreSettings from;
      JobStoreSettings to;
      try {
        from =
            fromUrl == null
                ? configuredStore(configuration, store.server, err)
                : settings(fromUrl, fromUser, fromPasswordFile);
        if (from == null) {
          return 2;
        }
        to = settings(toUrl, toUser, toPasswordFile);
      } catch (IllegalArgumentException | IllegalStateException e) {
        err.println("gantry-server store migrate: " + e.getMessage());
        return 2;
      }
      try {
        StoreSummary copied = StoreCopy.copy(from, to);
        PrintWriter out = spec.commandLine().getOut();
        copied.print(out);
        out.printf(
            "copied from the %s store to the %s store; counts and checksums equal%n",
            StoreCopy.kind(from), StoreCopy.kind(to));
        out.flush();
        return 0;
      } catch (StoreCopy.Refused e) {
        err.println("gantry-server store migrate: refused: " + e.getMessage());
        return 2;
      } catch (SQLException | RuntimeException e) {
        err.println("gantry-server store migrate: failed: " + firstLine(e));
        return 1;
      }
    }
  }

  /** {@code store checksums}: what the configured store holds, to compare two stores. */
  @Command(
      name = "checksums",
      mixinStandardHelpOptions = true,
      description =
          "Print each table of the job store with its row count and checksum (equal for equal"
              + " data on H2 and PostgreSQL), to compare a store with its copy or its backup.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {"0:printed", "1:the store could not be read", "2:bad configuration"})
  static final class Checksums implements Callable<Integer> {
    @ParentCommand StoreCommand store;

    @Mixin ConfigurationOptions configuration;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      JobStoreSettings settings = configuredStore(configuration, store.server, err);
      if (settings == null) {
        return 2;
      }
      try {
        StoreCopy.summary(settings).print(spec.commandLine().getOut());
        return 0;
      } catch (StoreCopy.Refused | SQLException | RuntimeException e) {
        err.println("gantry-server store checksums: " + firstLine(e));
        return 1;
      }
    }
  }

  private static JobStoreSettings configuredStore(
      ConfigurationOptions options, GantryServerCommand server, PrintWriter err) {
    try {
      return GantryServer.storeSettings(
          options.orElse(server == null ? null : server.configuration).load(Map.of()));
    } catch (ConfigException e) {
      err.println("gantry-server: " + e.getMessage());
      return null;
    }
  }

  private static JobStoreSettings settings(String url, String user, Path passwordFile) {
    char[] password =
        passwordFile == null ? new char[0] : new PasswordSource.FromFile(passwordFile).read();
    return new JobStoreSettings(url, user, new String(password), 2);
  }

  private static String firstLine(Exception e) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
