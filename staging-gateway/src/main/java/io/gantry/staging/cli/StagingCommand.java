package io.gantry.staging.cli;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.Manifest;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.Secret;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.SqlLoad;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import io.gantry.staging.StagingException;
import io.gantry.staging.StagingGateway;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Standalone entry point for manual runs and benchmarks: one SQL extract or one SQL load, then the
 * manifest record as {@code name: value} lines.
 *
 * <pre>
 * extract --url JDBC --user U [--password-env VAR] --sql SQL --out FILE [--compress] [--flag overwrite|append|dontOverwrite] [--job-dir DIR]
 * load    --url JDBC --user U [--password-env VAR] --sql SQL --in FILE --job-id ID [--batch-size N] [--job-dir DIR]
 * </pre>
 *
 * The password is read from the named environment variable, never from the command line. Exit
 * status: 0 done, 1 staging failed, 2 usage error.
 */
public final class StagingCommand {
  private StagingCommand() {}

  public static void main(String[] args) {
    try {
      System.exit(run(args));
    } catch (IllegalArgumentException e) {
      System.err.println("usage error: " + e.getMessage());
      System.exit(2);
    }
  }

  /** Runs one command; returns the exit status. */
  public static int run(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("first argument must be extract or load");
    }
    Map<String, String> o = options(args);
    String password = o.containsKey("password-env") ? System.getenv(o.get("password-env")) : "";
    DataSourceSpec spec =
        new DataSourceSpec(
            null,
            required(o, "url"),
            required(o, "user"),
            Secret.of(password == null ? "" : password));
    CredentialResolver credentials =
        new CredentialResolver() {
          @Override
          public DataSourceSpec dataSource(DataSourceRef ref) {
            return spec;
          }

          @Override
          public SshCredentials ssh(RemoteTransfer transfer) {
            throw new IllegalArgumentException("this command does no remote transfers");
          }
        };
    DataSourceRef ref = DataSourceRef.inline(spec.jdbcUrl(), spec.user(), null);
    Path jobDir = Path.of(o.getOrDefault("job-dir", "."));
    try (StagingGateway gateway = new StagingGateway(credentials, GatewayOptions.defaults())) {
      Manifest manifest;
      switch (args[0]) {
        case "extract":
          manifest =
              gateway.stageIn(
                  new StageInPlan(
                      List.of(),
                      List.of(
                          new SqlExtract(
                              ref,
                              1,
                              required(o, "sql"),
                              required(o, "out"),
                              o.get("in"),
                              CreationFlag.fromJsdl(o.getOrDefault("flag", "overwrite")),
                              o.containsKey("compress")))),
                  jobDir,
                  null);
          break;
        case "load":
          manifest =
              gateway.stageOut(
                  new StageOutPlan(
                      required(o, "job-id"),
                      List.of(
                          new SqlLoad(
                              ref,
                              1,
                              required(o, "sql"),
                              required(o, "in"),
                              Integer.parseInt(
                                  o.getOrDefault(
                                      "batch-size", String.valueOf(SqlLoad.DEFAULT_BATCH_SIZE))))),
                      List.of()),
                  jobDir,
                  null);
          break;
        default:
          throw new IllegalArgumentException("unknown command " + args[0] + " (extract or load)");
      }
      for (ManifestRecord r : manifest.records()) {
        print(r);
      }
      return 0;
    } catch (StagingException e) {
      System.err.println("staging failed: " + e.getMessage());
      return 1;
    }
  }

  static void print(ManifestRecord r) {
    System.out.println("kind: " + r.kind());
    System.out.println("file: " + r.file());
    System.out.println("rows: " + r.rows());
    System.out.println("bytes: " + r.bytes());
    System.out.println("sha256: " + r.sha256());
    System.out.printf("seconds: %.3f%n", r.seconds());
    System.out.println("skipped: " + r.skipped());
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument " + args[i]);
      }
      String name = args[i].substring(2);
      if (name.equals("compress")) {
        o.put(name, "true");
      } else if (i + 1 < args.length) {
        o.put(name, args[++i]);
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
    }
    return o;
  }

  private static String required(Map<String, String> o, String name) {
    String v = o.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }
}
