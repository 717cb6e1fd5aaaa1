package io.gantry.server.internal.plan;

import io.gantry.server.config.NamedApplication;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The applications this server offers by name: the configured ones, plus the sample's {@code mcvar}
 * when the node programs are installed and the operator did not configure an mcvar of their own.
 * Resolves a job's ApplicationName (and ApplicationVersion) for its owner:
 *
 * <ol>
 *   <li>Only applications the owner may run are considered (application.ID.users).
 *   <li>With a version, that exact version; without, the highest version offered.
 *   <li>Anything else is refused with the list of what the owner may run.
 * </ol>
 */
public final class ApplicationRegistry {
  /**
   * The sample's Monte Carlo VaR program (node-programs/mcvar), as docs/sample-var-job.md runs it.
   */
  public static final String MCVAR = "mcvar";

  private final List<NamedApplication> applications;

  public ApplicationRegistry(List<NamedApplication> applications) {
    this.applications =
        applications.stream()
            .sorted(
                Comparator.comparing(NamedApplication::name)
                    .thenComparing(NamedApplication::version, VERSIONS))
            .toList();
  }

  public static ApplicationRegistry empty() {
    return new ApplicationRegistry(List.of());
  }

  /**
   * The configured applications, plus the built-in mcvar where {@code mcvar} is an executable file
   * (found by {@link #onPath}) and no configured application is called mcvar.
   */
  public static ApplicationRegistry withBuiltIns(
      List<NamedApplication> configured, Optional<Path> mcvar) {
    List<NamedApplication> all = new ArrayList<>(configured);
    if (mcvar.isPresent() && configured.stream().noneMatch(a -> a.name().equals(MCVAR))) {
      all.add(builtInMcvar(mcvar.get()));
    }
    return new ApplicationRegistry(all);
  }

  /**
   * mcvar with the sample's file layout: the stage-in writes these gzip files into the job
   * directory, and stage-out reads results/ (see jsdl-schema/examples/var-job-named.jsdl).
   */
  public static NamedApplication builtInMcvar(Path executable) {
    return new NamedApplication(
        MCVAR,
        MCVAR,
        "1.0",
        NamedApplication.Kind.MPIRUN,
        executable.toString(),
        List.of(
            "--factors",
            "factors.csv.gz",
            "--history",
            "history.csv.gz",
            "--positions",
            "positions.csv.gz",
            "--params",
            "params.csv.gz",
            "--out-dir",
            "results",
            "--compress-output",
            // live results for gantry results --follow and the results page
            // (docs/live-results.md)
            "--progress",
            "progress.csv"),
        2,
        Set.of(),
        "Monte Carlo value at risk of a portfolio (the sample job)");
  }

  /** The first executable file called {@code program} in the directories of the PATH. */
  public static Optional<Path> onPath(String program, String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, program).toAbsolutePath();
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Every application, by name then version. */
  public List<NamedApplication> all() {
    return applications;
  }

  /** The applications {@code user} may run, by name then version. */
  public List<NamedApplication> offeredTo(String user) {
    return applications.stream().filter(a -> a.allows(user)).toList();
  }

  /** The application a job of {@code user} naming {@code name} (and maybe {@code version}) runs. */
  public NamedApplication resolve(String name, Optional<String> version, String user)
      throws JobFailure {
    List<NamedApplication> offered = offeredTo(user);
    List<NamedApplication> named = offered.stream().filter(a -> a.name().equals(name)).toList();
    if (named.isEmpty()) {
      throw new JobFailure(
          "ApplicationName "
              + name
              + " is not an application this server offers"
              + (user == null ? "" : " to " + user)
              + "; "
              + offerings(offered));
    }
    if (version.isEmpty()) {
      return named.get(named.size() - 1);
    }
    return named.stream()
        .filter(a -> a.version().equals(version.get()))
        .findFirst()
        .orElseThrow(
            () ->
                new JobFailure(
                    "application "
                        + name
                        + " has no version "
                        + version.get()
                        + "; "
                        + offerings(named)));
  }

  private static String offerings(List<NamedApplication> offered) {
    if (offered.isEmpty()) {
      return "it offers no named applications (gantry applications lists them)";
    }
    return "it offers "
        + String.join(", ", offered.stream().map(NamedApplication::label).toList())
        + " (gantry applications lists them)";
  }

  /**
   * Orders versions by their numeric parts where both are numbers ("1.10" after "1.9"), else as
   * text.
   */
  public static final Comparator<String> VERSIONS =
      (a, b) -> {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
          int c =
              x[i].matches("\\d{1,9}") && y[i].matches("\\d{1,9}")
                  ? Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]))
                  : x[i].compareTo(y[i]);
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(x.length, y.length);
      };
}
