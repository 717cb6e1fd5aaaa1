package io.gantry.dispatcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Everything the dispatcher needs to start one job's program, independent of how the job was
 * described (the server maps JSDL onto this). Immutable; checked on construction so a bad spec
 * fails at the server, with a message, rather than as a mysterious {@code mpirun} error.
 *
 * @param jobId the job's id, used in messages and logs
 * @param kind MPI (through {@code mpirun}) or a plain POSIX process
 * @param executable path of the program (absolute, or relative to the working directory)
 * @param arguments the program's arguments, each passed as one argument, never through a shell
 * @param environment variables for the program; values reach it through the process environment
 *     only, never the command line (command lines are readable by every local user in /proc)
 * @param workingDirectory the job's directory on the compute file system
 * @param processes number of MPI ranks ({@code -np}); 1 for POSIX jobs
 * @param hostFile Open MPI host file, or null to run on this host
 * @param extraMpirunOptions further {@code mpirun} options from the job description, checked
 *     against {@link MpirunOptionPolicy}
 * @param wallTimeLimit the job is stopped after this long; null for no limit
 * @param stdout file receiving the program's standard output (truncated first)
 * @param stderr file receiving its standard error; may equal {@code stdout}
 * @param jobDirectory the job's whole directory, the one writable path of its sandbox (seen there
 *     as {@code /job}); the working directory, host file and outputs lie inside it. Null means the
 *     working directory itself.
 * @param account the OS account the program runs under; launchers refuse a spec without one
 * @param fileSystems the operator's directories the job's sandbox shows besides the job directory
 *     (JSDL file systems), each at {@code /fs/NAME}
 * @param independentRanks the ranks do not talk to each other (a task farm's or worker session's
 *     launchers): when one dies, mpirun keeps the others running ({@code --enable-recovery})
 *     instead of aborting them all, so the dispatcher hands its work to those left. Set by the
 *     server only, never from a job description
 */
public record LaunchSpec(
    String jobId,
    ProgramKind kind,
    String executable,
    List<String> arguments,
    Map<String, String> environment,
    Path workingDirectory,
    int processes,
    Path hostFile,
    List<String> extraMpirunOptions,
    Duration wallTimeLimit,
    Path stdout,
    Path stderr,
    Path jobDirectory,
    JobAccount account,
    List<FileSystemMount> fileSystems,
    boolean independentRanks) {

  /** Portable environment variable names (POSIX "Portable Character Set", no '=' or NUL). */
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  public LaunchSpec {
    if (jobId == null || jobId.isBlank() || jobId.chars().anyMatch(Character::isISOControl)) {
      // it is written into logs and messages: no line breaks that could forge a log line
      throw new IllegalArgumentException("jobId must be non-empty printable text");
    }
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    jobDirectory = jobDirectory == null ? workingDirectory : jobDirectory;
    if (executable == null || executable.isBlank()) {
      throw new IllegalArgumentException("job " + jobId + ": executable must not be empty");
    }
    requirePlainText("executable", executable, jobId);
    arguments = List.copyOf(arguments == null ? List.of() : arguments);
    fileSystems = List.copyOf(fileSystems == null ? List.of() : fileSystems);
    arguments.forEach(a -> requirePlainText("argument", a, jobId));
    environment = checkedEnvironment(environment, jobId);
    extraMpirunOptions = List.copyOf(extraMpirunOptions == null ? List.of() : extraMpirunOptions);
    if (processes < 1) {
      throw new IllegalArgumentException(
          "job " + jobId + ": number of processes must be at least 1, was " + processes);
    }
    if (kind == ProgramKind.POSIX
        && (processes != 1 || hostFile != null || !extraMpirunOptions.isEmpty())) {
      throw new IllegalArgumentException(
          "job "
              + jobId
              + ": a POSIX job runs one process here; processes, host file and mpirun"
              + " options apply to MPI jobs only");
    }
    if (wallTimeLimit != null && (wallTimeLimit.isNegative() || wallTimeLimit.isZero())) {
      throw new IllegalArgumentException(
          "job " + jobId + ": wall-time limit must be positive, was " + wallTimeLimit);
    }
  }

  /** Environment values are left out: they may be credentials, and specs end up in logs. */
  @Override
  public String toString() {
    return "LaunchSpec[jobId="
        + jobId
        + ", kind="
        + kind
        + ", executable="
        + executable
        + ", arguments="
        + arguments
        + ", environment names="
        + environment.keySet()
        + ", workingDirectory="
        + workingDirectory
        + ", processes="
        + processes
        + ", hostFile="
        + hostFile
        + ", extraMpirunOptions="
        + extraMpirunOptions
        + ", wallTimeLimit="
        + wallTimeLimit
        + ", stdout="
        + stdout
        + ", stderr="
        + stderr
        + ", jobDirectory="
        + jobDirectory
        + ", account="
        + (account == null ? null : account.name())
        + ", fileSystems="
        + fileSystems
        + ", independentRanks="
        + independentRanks
        + "]";
  }

  /**
   * The same spec with its paths as the program sees them inside the sandbox; the output files stay
   * host paths, because the server opens them before the sandbox starts.
   */
  public LaunchSpec relocated(
      String executable, Path workingDirectory, Path hostFile, Path jobDirectory) {
    return new LaunchSpec(
        jobId,
        kind,
        executable,
        arguments,
        environment,
        workingDirectory,
        processes,
        hostFile,
        extraMpirunOptions,
        wallTimeLimit,
        stdout,
        stderr,
        jobDirectory,
        account,
        fileSystems,
        independentRanks);
  }

  /**
   * The same spec running {@code executable} with {@code arguments} instead (a wrapper that starts
   * the job's own program).
   */
  public LaunchSpec withProgram(String executable, List<String> arguments) {
    return new LaunchSpec(
        jobId,
        kind,
        executable,
        arguments,
        environment,
        workingDirectory,
        processes,
        hostFile,
        extraMpirunOptions,
        wallTimeLimit,
        stdout,
        stderr,
        jobDirectory,
        account,
        fileSystems,
        independentRanks);
  }

  /** The same spec, run under {@code runAs}. */
  public LaunchSpec withAccount(JobAccount runAs) {
    return new LaunchSpec(
        jobId,
        kind,
        executable,
        arguments,
        environment,
        workingDirectory,
        processes,
        hostFile,
        extraMpirunOptions,
        wallTimeLimit,
        stdout,
        stderr,
        jobDirectory,
        runAs,
        fileSystems,
        independentRanks);
  }

  /**
   * The same spec showing {@code mounts} to the program, with {@code variables} added to its
   * environment (replacing the job's own of the same name).
   */
  public LaunchSpec withFileSystems(List<FileSystemMount> mounts, Map<String, String> variables) {
    Map<String, String> env = new TreeMap<>(environment);
    env.putAll(variables);
    List<FileSystemMount> all = new ArrayList<>(fileSystems);
    all.addAll(mounts);
    return new LaunchSpec(
        jobId,
        kind,
        executable,
        arguments,
        env,
        workingDirectory,
        processes,
        hostFile,
        extraMpirunOptions,
        wallTimeLimit,
        stdout,
        stderr,
        jobDirectory,
        account,
        all,
        independentRanks);
  }

  /**
   * The same spec with {@code variables} added to its environment (replacing the job's own of the
   * same name): what the server decides only at launch, such as a task farm's dispatcher.
   */
  public LaunchSpec withEnvironment(Map<String, String> variables) {
    return withFileSystems(List.of(), variables);
  }

  public static Builder builder(String jobId, ProgramKind kind, String executable) {
    return new Builder(jobId, kind, executable);
  }

  private static Map<String, String> checkedEnvironment(Map<String, String> env, String jobId) {
    TreeMap<String, String> sorted = new TreeMap<>();
    if (env != null) {
      env.forEach(
          (name, value) -> {
            if (name == null || !ENV_NAME.matcher(name).matches()) {
              throw new IllegalArgumentException(
                  "job " + jobId + ": invalid environment variable name '" + name + "'");
            }
            Objects.requireNonNull(value, "value of environment variable " + name);
            // The value is not echoed: it may be a credential.
            if (value.indexOf('\0') >= 0) {
              throw new IllegalArgumentException(
                  "job " + jobId + ": environment variable " + name + " contains a NUL character");
            }
            sorted.put(name, value);
          });
    }
    // Sorted, so the generated command line is the same for the same job every time.
    return Collections.unmodifiableMap(sorted);
  }

  private static void requirePlainText(String what, String value, String jobId) {
    Objects.requireNonNull(value, what);
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "job " + jobId + ": " + what + " contains a NUL character");
    }
  }

  /** Assembles a spec step by step; defaults: no arguments or environment, 1 process. */
  public static final class Builder {
    private final String jobId;
    private final ProgramKind kind;
    private final String executable;
    private final List<String> arguments = new ArrayList<>();
    private final Map<String, String> environment = new TreeMap<>();
    private final List<String> extraMpirunOptions = new ArrayList<>();
    private Path workingDirectory;
    private int processes = 1;
    private Path hostFile;
    private Duration wallTimeLimit;
    private Path stdout;
    private Path stderr;
    private Path jobDirectory;
    private JobAccount account;
    private final List<FileSystemMount> fileSystems = new ArrayList<>();
    private boolean independentRanks;

    private Builder(String jobId, ProgramKind kind, String executable) {
      this.jobId = jobId;
      this.kind = kind;
      this.executable = executable;
    }

    public Builder arguments(String... args) {
      arguments.addAll(List.of(args));
      return this;
    }

    public Builder environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    public Builder workingDirectory(Path dir) {
      workingDirectory = dir;
      return this;
    }

    public Builder processes(int n) {
      processes = n;
      return this;
    }

    public Builder hostFile(Path file) {
      hostFile = file;
      return this;
    }

    public Builder extraMpirunOptions(String... options) {
      extraMpirunOptions.addAll(List.of(options));
      return this;
    }

    public Builder wallTimeLimit(Duration limit) {
      wallTimeLimit = limit;
      return this;
    }

    /** Standard output and standard error files. */
    public Builder output(Path out, Path err) {
      stdout = out;
      stderr = err;
      return this;
    }

    /** The job's whole directory (default: the working directory). */
    public Builder jobDirectory(Path dir) {
      jobDirectory = dir;
      return this;
    }

    /** The OS account the program runs under. */
    public Builder account(JobAccount runAs) {
      account = runAs;
      return this;
    }

    /** A JSDL file system the sandbox shows at {@code /fs/NAME}. */
    public Builder fileSystem(FileSystemMount mount) {
      fileSystems.add(mount);
      return this;
    }

    /** The ranks are independent processes: one that dies leaves the others running. */
    public Builder independentRanks(boolean independent) {
      independentRanks = independent;
      return this;
    }

    public LaunchSpec build() {
      return new LaunchSpec(
          jobId,
          kind,
          executable,
          arguments,
          environment,
          workingDirectory,
          processes,
          hostFile,
          extraMpirunOptions,
          wallTimeLimit,
          stdout,
          stderr,
          jobDirectory,
          account,
          fileSystems,
          independentRanks);
    }
  }
}
