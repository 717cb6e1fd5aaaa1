package io.gantry.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The command agent: one JVM per user and build that stays up between commands, so that a command
 * answers in milliseconds instead of paying for a JVM's start, its class loading and a cold TLS
 * stack every time (what Gradle's daemon and ssh-agent do for a user's many short calls).
 * bin/gantry reaches it with gantry-client over a Unix socket in a directory only the user can
 * enter, and starts it in the background when none answers; the agent serves only its own user (the
 * peer's credentials, SO_PEERCRED) and ends after an idle time.
 *
 * <p>Each request carries the client's arguments, environment and working directory ({@link
 * AgentRequest}); the command runs in a thread of its own with exactly those, and its output goes
 * back as frames ({@link AgentReply}). The agent holds no credential between commands: a command
 * reads the login file, or GANTRY_PASSWORD from its request, as it would in a JVM of its own. What
 * only the user's process has, its standard input and terminal, the agent does not fake: a command
 * that needs them is answered "run locally" ({@link LocalProcessNeeded}). Closing the client (^C)
 * interrupts the command.
 *
 * <p>Usage: {@code CommandAgent SOCKET IDLE_SECONDS [LOG]}. A lock file beside the socket keeps a
 * second agent for the same socket from starting; a pid file beside it names the agent's process
 * while it runs; LOG (bin/gantry: SOCKET.log) gets its output. None of them is written through a
 * link ({@link AgentFiles}).
 */
public final class CommandAgent {
  private final Path socket;
  private final Duration idle;
  private final AtomicInteger running = new AtomicInteger();
  private volatile Instant lastActivity = Instant.now();

  private CommandAgent(Path socket, Duration idle) {
    this.socket = socket;
    this.idle = idle;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2 && args.length != 3) {
      System.err.println("usage: CommandAgent SOCKET IDLE_SECONDS [LOG]");
      System.exit(ExitCodes.USAGE_OR_IO);
    }
    // as in a command's own JVM: libraries log only what went wrong
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    System.setIn(new UserInputOnly());
    Path socket = Path.of(args[0]).toAbsolutePath();
    Duration idle = Duration.ofSeconds(Long.parseLong(args[1]));
    Path log = args.length == 3 ? Path.of(args[2]).toAbsolutePath() : null;
    try {
      run(socket, idle, log);
    } catch (AgentFiles.LinkRefused e) {
      System.err.println("gantry command agent: " + e.getMessage());
      System.exit(ExitCodes.USAGE_OR_IO);
    }
  }

  /**
   * Serves {@code socket} unless another agent does; {@code log}, when given, receives the agent's
   * standard output and error. The lock, pid and log files are opened refusing links ({@link
   * AgentFiles}).
   *
   * @throws AgentFiles.LinkRefused when a link stands where one of them goes
   */
  static void run(Path socket, Duration idle, Path log) throws IOException {
    Path lockFile = socket.resolveSibling(socket.getFileName() + ".lock");
    try (FileChannel lockChannel = AgentFiles.openForWriting(lockFile, false);
        FileLock lock = lockChannel.tryLock()) {
      if (lock == null) {
        return; // another agent serves, or is starting to serve, this socket
      }
      if (log != null) {
        // emptied only now that the lock is ours: never the log of the agent that serves
        PrintStream to =
            new PrintStream(
                Channels.newOutputStream(AgentFiles.openForWriting(log, true)),
                true,
                StandardCharsets.UTF_8);
        System.setOut(to);
        System.setErr(to);
      }
      // for whoever must stop it (a test, a script): the agent's process id beside its socket
      Path pidFile = socket.resolveSibling(socket.getFileName() + ".pid");
      try (FileChannel pid = AgentFiles.openForWriting(pidFile, true)) {
        pid.write(
            ByteBuffer.wrap(
                (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
      }
      try {
        new CommandAgent(socket, idle).serve();
      } finally {
        Files.deleteIfExists(pidFile);
      }
    }
  }

  private void serve() throws IOException {
    // the lock is ours: a socket file still there is a stale one of an agent that ended abruptly
    Files.deleteIfExists(socket);
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        Selector selector = Selector.open()) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
      System.err.println(Instant.now() + " gantry command agent serving " + socket);
      while (!idleLongEnough()) {
        selector.select(1000);
        selector.selectedKeys().clear();
        acceptAll(server);
      }
      // no new client can find the socket once it is gone; those already queued are served
      Files.deleteIfExists(socket);
      acceptAll(server);
      while (running.get() > 0) {
        sleepQuietly();
      }
      System.err.println(Instant.now() + " gantry command agent idle for " + idle + ", ended");
    }
  }

  private boolean idleLongEnough() {
    return running.get() == 0 && Instant.now().isAfter(lastActivity.plus(idle));
  }

  private void acceptAll(ServerSocketChannel server) throws IOException {
    for (SocketChannel client = server.accept(); client != null; client = server.accept()) {
      client.configureBlocking(true);
      running.incrementAndGet();
      lastActivity = Instant.now();
      SocketChannel accepted = client;
      Thread thread =
          new Thread(
              () -> {
                try (accepted) {
                  if (fromThisUser(accepted)) {
                    run(AgentRequest.read(accepted), accepted);
                  }
                } catch (ClosedChannelException e) {
                  // the client went away (^C) and its command was interrupted: nothing to report
                } catch (IOException | RuntimeException e) {
                  System.err.println(Instant.now() + " a command ended badly: " + e);
                } finally {
                  lastActivity = Instant.now();
                  running.decrementAndGet();
                }
              },
              "gantry-command");
      thread.start();
    }
  }

  /** Only the agent's own user may run commands here, whatever the socket's permissions. */
  private static boolean fromThisUser(SocketChannel client) throws IOException {
    UnixDomainPrincipal peer = client.getOption(ExtendedSocketOptions.SO_PEERCRED);
    boolean same = peer.user().getName().equals(System.getProperty("user.name"));
    if (!same) {
      System.err.println(Instant.now() + " refused a client of user " + peer.user().getName());
    }
    return same;
  }

  /** One command, as its own JVM would run it, with the request's arguments and environment. */
  private static void run(AgentRequest request, SocketChannel client) throws IOException {
    AgentReply reply = new AgentReply(client);
    Thread command = Thread.currentThread();
    AtomicBoolean done = new AtomicBoolean();
    Thread watch = new Thread(() -> interruptWhenGone(client, command, done), "gantry-client-gone");
    watch.setDaemon(true);
    watch.start();
    PrintWriter out =
        new PrintWriter(
            new OutputStreamWriter(reply.stream(AgentReply.STDOUT), StandardCharsets.UTF_8), true);
    PrintWriter err =
        new PrintWriter(
            new OutputStreamWriter(reply.stream(AgentReply.STDERR), StandardCharsets.UTF_8), true);
    boolean interactive = request.inputIsTerminal() && request.outputIsTerminal();
    GantryCommand gantry =
        new GantryCommand(
            request.environment(),
            interactive ? Optional.of(new UserTerminalOnly()) : Optional.empty(),
            request.workingDirectory(),
            interactive,
            reply.stream(AgentReply.STDOUT));
    String[] arguments = request.arguments().toArray(String[]::new);
    int code;
    try {
      CommandLine commandLine = GantryCommand.commandLine(gantry, arguments);
      if (interactive && asksTheUser(commandLine, arguments)) {
        done.set(true);
        reply.runLocally();
        return;
      }
      commandLine.setOut(out);
      commandLine.setErr(err);
      code = commandLine.execute(arguments);
    } catch (RuntimeException | Error e) {
      err.println("gantry: " + e);
      code = ExitCodes.USAGE_OR_IO;
    }
    out.flush();
    err.flush();
    done.set(true);
    if (code == ExitCodes.RUN_LOCALLY) {
      if (!reply.wroteOutput()) {
        reply.runLocally();
        return;
      }
      err.println(
          "gantry: this command needs your terminal or standard input after it began; run it"
              + " again with GANTRY_AGENT=off");
      err.flush();
      code = ExitCodes.USAGE_OR_IO;
    }
    reply.exit(code);
  }

  /**
   * Whether the command is a conversation at the terminal from its first line ({@code gantry login}
   * asks for the user name, shows the certificate, asks for the password): it runs in the user's
   * own process.
   */
  private static boolean asksTheUser(CommandLine commandLine, String[] arguments) {
    try {
      ParseResult parsed = commandLine.parseArgs(arguments);
      while (parsed.hasSubcommand()) {
        parsed = parsed.subcommand();
      }
      return parsed.commandSpec().userObject() instanceof LoginCommand;
    } catch (CommandLine.ParameterException e) {
      return false; // execute reports it as a usage error
    }
  }

  /**
   * The client sends nothing after its request: the end of its side means the user stopped it (^C,
   * a closed terminal), and the command is interrupted rather than left running unseen.
   */
  private static void interruptWhenGone(SocketChannel client, Thread command, AtomicBoolean done) {
    ByteBuffer ignored = ByteBuffer.allocate(64);
    try {
      while (client.read(ignored) >= 0) {
        ignored.clear();
      }
    } catch (IOException e) {
      // closed: either end
    }
    if (!done.get()) {
      command.interrupt();
    }
  }

  private static void sleepQuietly() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The agent's standard input: a command that reads it must run in the user's own process. */
  private static final class UserInputOnly extends InputStream {
    @Override
    public int read() {
      throw new LocalProcessNeeded("standard input");
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
      throw new LocalProcessNeeded("standard input");
    }
  }

  /** The user's terminal, present but out of the agent's reach. */
  private static final class UserTerminalOnly implements Terminal {
    @Override
    public String readLine(String prompt) {
      throw new LocalProcessNeeded("the terminal");
    }

    @Override
    public char[] readPassword(String prompt) {
      throw new LocalProcessNeeded("the terminal");
    }
  }
}
