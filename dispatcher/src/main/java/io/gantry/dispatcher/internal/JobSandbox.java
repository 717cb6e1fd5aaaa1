package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.FileSystemMount;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.SandboxConfig;
import io.gantry.jsdl.ReservedEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The confinement every program of a job starts in. The command is, as one argument array:
 *
 * <pre>
 * bwrap [namespaces] [read-only system] --bind JOBDIR /job --chdir /job/... [capabilities] --
 *   setpriv --reuid U --regid G --groups ... --inh-caps=-all --ambient-caps=-all
 *           --bounding-set=-all --no-new-privs --  PROGRAM [ARGS]...
 * </pre>
 *
 * <ol>
 *   <li>bubblewrap runs as the server (root) and builds a new mount, PID and IPC namespace: /usr
 *       and the executable roots read-only, a short list of /etc files (not all of /etc, which may
 *       hold the server's own configuration), /sys read-only, a fresh /proc showing only the
 *       sandbox's processes, a minimal /dev, private /tmp and /dev/shm, and the job directory as
 *       the only writable path, always at {@code /job}, besides the JSDL file systems the job names
 *       ({@code /fs/NAME}, read-write or read-only as the operator configured each). Nothing else
 *       of the host exists there: not the server's data directory, not other jobs' directories, not
 *       other processes.
 *   <li>Inside, setpriv switches to the job's uid, gid and supplementary groups and drops every
 *       capability (effective, permitted, inheritable, ambient and the bounding set) and sets
 *       no_new_privs, so nothing the job runs can gain privileges back (setuid binaries included).
 *       Bubblewrap keeps only the four capabilities setpriv needs for that (set uid, set gid, drop
 *       the bounding set, enter the job directory, which belongs to the job's account and is 0700).
 *   <li>{@code --die-with-parent} and the PID namespace tie the job to the server's supervision:
 *       when bwrap ends, the kernel kills every process left in the namespace.
 * </ol>
 *
 * Why bwrap first and setpriv inside, not the other way round: bubblewrap running as root needs no
 * unprivileged user namespace (often disabled on hardened hosts) and can open the job directory
 * wherever the data directory lies, however its parents are protected; setpriv then leaves the job
 * nothing of root. The reverse order makes every bind source (the job directory under the server's
 * data directory) traversable by every job account.
 */
public final class JobSandbox {
  /** Where the job directory appears inside the sandbox, for every job. */
  public static final Path JOB_DIRECTORY = Path.of("/job");

  /**
   * Processes between the launched root and the job's own program: bwrap, then the init bwrap runs
   * as PID 1 of the new namespace. SIGTERM goes to the job's processes only: bwrap would die of it
   * at once and take the whole namespace down with SIGKILL, leaving no grace period.
   */
  public static final int WRAPPER_DEPTH = 2;

  /** Directories always on the job's PATH, after the executable roots. */
  private static final List<String> SYSTEM_PATH = List.of("/usr/local/bin", "/usr/bin", "/bin");

  /** Top-level names that are symlinks into /usr on merged-/usr systems, or real directories. */
  private static final List<String> SYSTEM_LINKS =
      List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");

  /**
   * What a program needs from /etc: accounts and names, the loader's cache, time zone,
   * certificates, Debian's alternatives (mpirun is one) and Open MPI's system-wide settings.
   */
  private static final List<String> ETC_ENTRIES =
      List.of(
          "passwd",
          "group",
          "nsswitch.conf",
          "hosts",
          "host.conf",
          "resolv.conf",
          "gai.conf",
          "services",
          "protocols",
          "networks",
          "hostname",
          "ld.so.cache",
          "ld.so.conf",
          "ld.so.conf.d",
          "localtime",
          "timezone",
          "locale.alias",
          "alternatives",
          "ssl/certs",
          "ca-certificates",
          "openmpi",
          "pmix",
          "ssh/ssh_config",
          "ssh/ssh_config.d",
          "ssh/ssh_known_hosts");

  /**
   * Open MPI and its runtimes read MCA parameters from files under {@code $HOME} unless told
   * otherwise; HOME is the job directory, which the job writes. Each variable here names the only
   * parameter files that are read: the system-wide ones (root's, read-only here), or none.
   */
  private static final Map<String, List<String>> PARAMETER_FILES =
      Map.of(
          "OMPI_MCA_mca_base_param_files", List.of("/etc/openmpi/openmpi-mca-params.conf"),
          "PMIX_MCA_mca_base_param_files",
              List.of(
                  "/usr/lib/x86_64-linux-gnu/pmix2/share/pmix-mca-params.conf",
                  "/usr/lib/aarch64-linux-gnu/pmix2/share/pmix-mca-params.conf",
                  "/etc/pmix-mca-params.conf"),
          "PRTE_MCA_mca_base_param_files", List.of("/etc/prte-mca-params.conf"));

  private final SandboxConfig config;

  public JobSandbox(SandboxConfig config) {
    this.config = config;
  }

  /** The job's PATH inside the sandbox: the executable roots, then the system's. */
  public String path() {
    List<String> dirs = new ArrayList<>();
    config.executableRoots().forEach(r -> dirs.add(r.toString()));
    dirs.addAll(SYSTEM_PATH);
    return String.join(":", dirs);
  }

  /**
   * The spec as the program sees it: working directory and host file under {@code /job}, the
   * executable resolved (a path inside the sandbox, or a bare name found on its PATH).
   *
   * @param resolveBareNames whether to replace a bare name by the path it resolves to (POSIX
   *     programs; mpirun looks names up itself)
   */
  public LaunchSpec inside(LaunchSpec spec, boolean resolveBareNames) throws LaunchException {
    requireAccount(spec);
    Path jobDir = spec.jobDirectory().toAbsolutePath().normalize();
    Path wdir = insidePath(spec, spec.workingDirectory(), "working directory");
    Path hostFile = spec.hostFile() == null ? null : insidePath(spec, spec.hostFile(), "host file");
    String executable = executable(spec, jobDir, resolveBareNames);
    return spec.relocated(executable, wdir, hostFile, JOB_DIRECTORY);
  }

  /** The full command: bwrap, setpriv, then {@code program} (argv as seen inside the sandbox). */
  public List<String> wrap(LaunchSpec spec, LaunchSpec inside, List<String> program)
      throws LaunchException {
    JobAccount account = requireAccount(spec);
    List<String> argv = confinement(spec, inside, true);
    argv.addAll(
        List.of(
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--cap-add",
            "CAP_SETPCAP",
            "--cap-add",
            "CAP_DAC_READ_SEARCH",
            "--"));
    argv.add(config.setpriv().toString());
    argv.add("--reuid=" + account.uid());
    argv.add("--regid=" + account.gid());
    argv.add(
        account.groups().isEmpty()
            ? "--clear-groups"
            : "--groups="
                + account.groups().stream().map(String::valueOf).collect(Collectors.joining(",")));
    argv.addAll(
        List.of(
            "--inh-caps=-all",
            "--ambient-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--"));
    argv.addAll(program);
    return List.copyOf(argv);
  }

  /**
   * The bubblewrap options (up to, not including, {@code --}) that confine one rank on a compute
   * node, where it already runs as the job's account (started there by Open MPI's daemon or Slurm):
   * the same namespaces and the same view of the system, job directory and file systems as {@link
   * #wrap}, but no account switch and no capability beyond overriding file permissions (which a
   * user namespace confines to the account's own files). Nothing is looked up on this host but the
   * system's layout: the job directory and file systems are the node's paths, as given.
   */
  public List<String> onNode(LaunchSpec spec, LaunchSpec inside) throws LaunchException {
    List<String> argv = confinement(spec, inside, false);
    // Only the rights over files: a rank of a shared root account (mpirun.ssh-user=root) works in
    // a job directory of the job's account, as it did unconfined, and no more. For every other
    // account bubblewrap runs in a user namespace, where these grant nothing over other users'
    // files.
    argv.addAll(
        List.of(
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_DAC_OVERRIDE",
            "--cap-add",
            "CAP_DAC_READ_SEARCH",
            "--cap-add",
            "CAP_FOWNER"));
    argv.addAll(List.of("--setenv", "PATH", path()));
    argv.addAll(List.of("--setenv", "HOME", JOB_DIRECTORY.toString()));
    argv.addAll(List.of("--setenv", "TMPDIR", "/tmp"));
    return List.copyOf(argv);
  }

  /**
   * The spec's working directory and executable as a rank on a node sees them, without looking at
   * this host's files (they are the node's): the working directory under {@code /job}, an
   * executable in the job directory as {@code /job/...}, any other name as given (bare names are
   * found on the node's PATH), refused where the sandbox would not show it.
   */
  public LaunchSpec insideOnNode(LaunchSpec spec) throws LaunchException {
    Path jobDir = spec.jobDirectory().toAbsolutePath().normalize();
    Path wdir = insidePath(spec, spec.workingDirectory(), "working directory");
    String exe = spec.executable();
    if (exe.startsWith("/")) {
      Path normal = Path.of(exe).normalize();
      if (normal.startsWith(jobDir)) {
        exe = JOB_DIRECTORY.resolve(jobDir.relativize(normal).toString()).toString();
      } else if (!normal.startsWith(JOB_DIRECTORY) && !visible(normal)) {
        throw new LaunchException(
            "job "
                + spec.jobId()
                + ": executable "
                + exe
                + " is outside what the job's sandbox on its nodes shows: /usr, the job"
                + " directory (as /job) and the allowed executable roots "
                + config.executableRoots());
      }
    }
    return spec.relocated(exe, wdir, null, JOB_DIRECTORY);
  }

  /**
   * bwrap and the options every sandbox shares: namespaces, the read-only system, /proc, /dev,
   * private temporary directories, the executable roots, the job directory at /job and the file
   * systems, and the working directory. {@code local}: the file systems' directories are this
   * host's, resolved and checked here.
   */
  private List<String> confinement(LaunchSpec spec, LaunchSpec inside, boolean local)
      throws LaunchException {
    List<String> argv = new ArrayList<>();
    argv.add(config.bwrap().toString());
    argv.addAll(List.of("--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"));
    bind(argv, "--ro-bind", "/usr", "/usr");
    for (String name : SYSTEM_LINKS) {
      systemLink(argv, Path.of("/", name));
    }
    java.util.Set<Path> made = new java.util.HashSet<>();
    for (String entry : ETC_ENTRIES) {
      parents(argv, made, Path.of("/etc", entry));
      bind(argv, "--ro-bind-try", "/etc/" + entry, "/etc/" + entry);
    }
    bind(argv, "--ro-bind", "/sys", "/sys");
    argv.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
    argv.addAll(
        List.of("--perms", "1777", "--tmpfs", "/tmp", "--perms", "1777", "--tmpfs", "/dev/shm"));
    for (Path root : config.executableRoots()) {
      if (!root.startsWith("/usr")) {
        parents(argv, made, root);
        bind(argv, "--ro-bind", root.toString(), root.toString());
      }
    }
    bind(
        argv,
        "--bind",
        spec.jobDirectory().toAbsolutePath().normalize().toString(),
        JOB_DIRECTORY.toString());
    for (FileSystemMount fs : spec.fileSystems()) {
      parents(argv, made, fs.mountPoint());
      bind(
          argv,
          fs.readOnly() ? "--ro-bind" : "--bind",
          local ? realDirectory(spec, fs) : fs.directory().toString(),
          fs.mountPoint().toString());
    }
    argv.addAll(List.of("--chdir", inside.workingDirectory().toString()));
    return argv;
  }

  /**
   * The environment of the sandboxed program (mpirun, or the POSIX program), built here: the
   * inherited locale, a fixed PATH, HOME and TMPDIR inside the sandbox, the account's name, MCA
   * parameter files the job cannot write, then the job's own variables, none of them reserved.
   */
  public Map<String, String> environment(
      LaunchSpec spec, List<String> inheritedNames, Map<String, String> server) {
    JobAccount account = spec.account();
    Map<String, String> env = new TreeMap<>();
    for (String name : inheritedNames) {
      if (server.get(name) != null && ReservedEnvironment.problem(name).isEmpty()) {
        env.put(name, server.get(name));
      }
    }
    env.put("PATH", path());
    env.put("HOME", JOB_DIRECTORY.toString());
    env.put("TMPDIR", "/tmp");
    env.put("USER", account.name());
    env.put("LOGNAME", account.name());
    PARAMETER_FILES.forEach((name, candidates) -> env.put(name, systemFiles(candidates)));
    spec.environment()
        .forEach(
            (name, value) -> {
              ReservedEnvironment.problem(name)
                  .filter(p -> !ReservedEnvironment.setByServer(name))
                  .ifPresent(
                      problem -> {
                        throw new IllegalArgumentException("job " + spec.jobId() + ": " + problem);
                      });
              env.put(name, value);
            });
    return env;
  }

  /**
   * Creates (or empties) the job's output files before the sandbox starts, without following a
   * link, and gives them to the job's account; the launcher then opens them for the program.
   */
  public void prepareOutputs(LaunchSpec spec) throws LaunchException {
    JobAccount account = requireAccount(spec);
    for (Path file : List.of(spec.stdout(), spec.stderr())) {
      insidePath(spec, file, "output file");
      try {
        Files.createDirectories(file.getParent());
        if (Files.isSymbolicLink(file)) {
          Files.delete(file); // a link here could point the server's write anywhere
        }
        Files.newByteChannel(
                file,
                java.util.Set.of(
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING,
                    LinkOption.NOFOLLOW_LINKS))
            .close();
        Files.setAttribute(file, "unix:uid", account.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(file, "unix:gid", account.gid(), LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        throw new LaunchException(
            "job "
                + spec.jobId()
                + ": cannot create the output file "
                + file
                + ": "
                + e.getMessage(),
            e);
      }
    }
  }

  /**
   * The file system's directory with every link resolved, checked to be a directory now: what
   * bubblewrap binds is then what the operator configured, not what a link there points to later.
   */
  private static String realDirectory(LaunchSpec spec, FileSystemMount fs) throws LaunchException {
    try {
      Path real = fs.directory().toRealPath();
      if (!Files.isDirectory(real)) {
        throw new LaunchException(
            "job "
                + spec.jobId()
                + ": file system "
                + fs.name()
                + " ("
                + fs.directory()
                + ") is not a directory");
      }
      return real.toString();
    } catch (IOException e) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": file system "
              + fs.name()
              + " ("
              + fs.directory()
              + ") cannot be opened: "
              + e.getMessage(),
          e);
    }
  }

  private static String systemFiles(List<String> candidates) {
    String found =
        candidates.stream()
            .filter(f -> Files.isRegularFile(Path.of(f)))
            .collect(Collectors.joining(":"));
    // An empty value would mean "the defaults", which include $HOME; /dev/null is an empty file.
    return found.isEmpty() ? "/dev/null" : found;
  }

  private static JobAccount requireAccount(LaunchSpec spec) throws LaunchException {
    if (spec.account() == null) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": no OS account to run it under; a job never"
              + " runs as the server's own account");
    }
    return spec.account();
  }

  /** A host path inside the job directory, as the sandbox shows it under /job. */
  private static Path insidePath(LaunchSpec spec, Path hostPath, String what)
      throws LaunchException {
    Path jobDir = spec.jobDirectory().toAbsolutePath().normalize();
    Path path = hostPath.toAbsolutePath().normalize();
    if (!path.startsWith(jobDir)) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": the "
              + what
              + " "
              + hostPath
              + " is outside the job directory, and a job's sandbox shows only that directory");
    }
    return JOB_DIRECTORY.resolve(jobDir.relativize(path).toString());
  }

  private String executable(LaunchSpec spec, Path jobDir, boolean resolveBareNames)
      throws LaunchException {
    String exe = spec.executable();
    if (!exe.contains("/")) {
      Path found = Executables.resolve(spec, path());
      return resolveBareNames ? found.toString() : exe;
    }
    Path asGiven = Path.of(exe);
    if (!asGiven.isAbsolute()) {
      Executables.resolve(
          spec, null); // relative to the working directory, inside the job directory
      return resolveBareNames
          ? insidePath(spec, spec.workingDirectory().resolve(exe), "executable").toString()
          : exe;
    }
    Path normal = asGiven.normalize();
    if (normal.startsWith(JOB_DIRECTORY)) {
      Path host = jobDir.resolve(JOB_DIRECTORY.relativize(normal).toString());
      Executables.requireExecutable(spec, host);
      return normal.toString();
    }
    if (normal.startsWith(jobDir)) {
      Executables.requireExecutable(spec, normal);
      return JOB_DIRECTORY.resolve(jobDir.relativize(normal).toString()).toString();
    }
    if (!visible(normal)) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": executable "
              + exe
              + " is outside what the job's"
              + " sandbox shows: /usr, the job directory (as /job) and the allowed executable roots "
              + config.executableRoots());
    }
    Executables.requireExecutable(spec, normal);
    return normal.toString();
  }

  private boolean visible(Path path) {
    if (path.startsWith("/usr") || config.executableRoots().stream().anyMatch(path::startsWith)) {
      return true;
    }
    return SYSTEM_LINKS.stream().anyMatch(name -> path.startsWith("/" + name));
  }

  private static void systemLink(List<String> argv, Path top) {
    if (Files.isSymbolicLink(top)) {
      try {
        argv.addAll(List.of("--symlink", Files.readSymbolicLink(top).toString(), top.toString()));
      } catch (IOException e) {
        // unreadable link: leave it out of the sandbox
      }
    } else if (Files.isDirectory(top)) {
      bind(argv, "--ro-bind", top.toString(), top.toString());
    }
  }

  /**
   * Creates the directories above a bind target as 0755: bubblewrap running as root would make them
   * 0700, and the job's account could then not reach /etc/passwd or an executable root.
   */
  private static void parents(List<String> argv, java.util.Set<Path> made, Path target) {
    Path parent = target.getParent();
    for (int i = 1; parent != null && i <= parent.getNameCount(); i++) {
      Path dir = Path.of("/").resolve(parent.subpath(0, i));
      if (made.add(dir)) {
        argv.addAll(List.of("--perms", "0755", "--dir", dir.toString()));
      }
    }
  }

  private static void bind(List<String> argv, String how, String source, String target) {
    argv.add(how);
    argv.add(source);
    argv.add(target);
  }
}
