package io.gantry.server.internal.workersession;

import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.workersession.SessionDispatcher;
import io.gantry.dispatcher.workersession.SessionOptions;
import io.gantry.dispatcher.workersession.WorkerProgram;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's open worker sessions (docs/task-farms.md, "Sessions"). Opening one starts its {@link
 * SessionDispatcher} on {@code farm.dispatcher-host} with a fresh secret, then its launchers
 * through {@link WorkerSessionLaunch}. A session lives in this server's memory only: a server that
 * stops closes its sessions (their launchers lose the dispatcher and stop their workers).
 *
 * <p>A session ends when its owner closes it, when its owner has neither submitted nor taken for
 * {@code worker-session.idle-timeout}, or at shutdown. When its launchers end on their own (mpirun
 * gave up, the account was removed) it is BROKEN: it stays, saying why, until it is closed.
 */
public final class WorkerSessions implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerSessions.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] ID_CHARS = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
  private static final String ADDRESS_VARIABLE = "GANTRY_FARM_DISPATCHER";
  private static final String SECRET_VARIABLE = "GANTRY_FARM_SECRET";

  private final ServerConfig.WorkerSessions limits;
  private final ServerConfig.TaskFarms dispatchers;
  private final WorkerSessionLaunch launch;
  private final Duration killGrace;
  private final Clock clock;
  private final Map<String, WorkerSession> open = new ConcurrentHashMap<>();
  private final ScheduledExecutorService reaper =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-worker-sessions");
            t.setDaemon(true);
            return t;
          });

  @SuppressWarnings("FutureReturnValueIgnored") // a periodic task: its failures are logged in it
  public WorkerSessions(
      ServerConfig.WorkerSessions limits,
      ServerConfig.TaskFarms dispatchers,
      WorkerSessionLaunch launch,
      Duration killGrace,
      Clock clock) {
    this.limits = limits;
    this.dispatchers = dispatchers;
    this.launch = launch;
    this.killGrace = killGrace;
    this.clock = clock;
    long every = Math.max(1, Math.min(30, limits.idleTimeout().toSeconds() / 4));
    reaper.scheduleWithFixedDelay(this::closeIdle, every, every, TimeUnit.SECONDS);
  }

  public ServerConfig.WorkerSessions limits() {
    return limits;
  }

  /** What {@code user} names for the workers to run (see {@link WorkerSessionLaunch#program}). */
  public WorkerProgram program(
      String user, String application, String executable, List<String> arguments)
      throws JobFailure {
    return launch.program(user, application, executable, arguments);
  }

  /**
   * Opens a session of {@code workers} workers running {@code program} for {@code owner}. When its
   * launchers end while it is open, its dispatcher is told it broke (the callback only sets that).
   *
   * @param window messages in flight per worker
   * @throws WorkerSessionLimitException over {@code worker-session.max-workers} or {@code
   *     max-per-user}
   * @throws JobFailure when the launchers cannot start (the account, the backend, mpirun)
   */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // the exit callback only records; nothing to wait on
  public WorkerSession open(
      String owner, WorkerProgram program, String label, int workers, int window)
      throws WorkerSessionLimitException, JobFailure {
    if (workers > limits.maxWorkers()) {
      throw new WorkerSessionLimitException(
          workers
              + " workers is more than a session may have ("
              + limits.maxWorkers()
              + ", worker-session.max-workers)");
    }
    String id = newId();
    SessionOptions options =
        new SessionOptions(
            workers,
            limits.maxHeldMessages(),
            limits.maxHeldBytes(),
            limits.maxMessageBytes(),
            window,
            limits.messageRetries(),
            limits.workerRestarts(),
            dispatchers.helloTimeout(),
            dispatchers.maxUnauthenticated());
    String secret = FarmDispatcher.newSecret();
    synchronized (this) { // the per-user count and the registration, one at a time
      long mine = open.values().stream().filter(s -> s.owner().equals(owner)).count();
      if (mine >= limits.maxPerUser()) {
        throw new WorkerSessionLimitException(
            "user "
                + owner
                + " has "
                + mine
                + " sessions open, the most allowed (worker-session.max-per-user); close one");
      }
      SessionDispatcher dispatcher;
      try {
        dispatcher =
            SessionDispatcher.start(
                id,
                new InetSocketAddress(dispatchers.dispatcherHost(), 0),
                secret,
                program,
                options);
      } catch (IOException e) {
        throw new JobFailure("cannot start the session's dispatcher: " + e.getMessage(), e);
      }
      RunningJob launchers;
      try {
        String address = hostPort(dispatchers.dispatcherHost(), dispatcher.address().getPort());
        launchers =
            launch.start(
                id, owner, workers, Map.of(ADDRESS_VARIABLE, address, SECRET_VARIABLE, secret));
      } catch (JobFailure | RuntimeException e) {
        dispatcher.close();
        removeQuietly(id);
        throw e;
      }
      WorkerSession session =
          new WorkerSession(id, owner, label, workers, clock.instant(), dispatcher, launchers);
      open.put(id, session);
      launchers
          .onExit()
          .whenComplete(
              (outcome, error) -> {
                if (open.containsKey(id)) {
                  dispatcher.fail(
                      "the session's launchers ended"
                          + (outcome != null ? " (" + outcome + ")" : "")
                          + "; see workers.err in its directory");
                }
              });
      LOG.info(
          "worker session {} of {}: {} worker(s) running {}, dispatcher {}",
          id,
          owner,
          workers,
          label,
          dispatcher.address());
      return session;
    }
  }

  /** The session, if {@code user} may see it (its owner, or an administrator). */
  public Optional<WorkerSession> visible(String id, String user, boolean admin) {
    WorkerSession s = id == null ? null : open.get(id);
    return s != null && (admin || s.owner().equals(user)) ? Optional.of(s) : Optional.empty();
  }

  /**
   * The session, if it is {@code user}'s own: only its owner feeds it and takes its completions.
   */
  public Optional<WorkerSession> owned(String id, String user) {
    Optional<WorkerSession> s = visible(id, user, false);
    s.ifPresent(x -> x.touch(clock.instant()));
    return s;
  }

  /** {@code user}'s sessions, or everyone's, oldest first. */
  public List<WorkerSession> list(String user, boolean everyone) {
    List<WorkerSession> out = new ArrayList<>();
    for (WorkerSession s : open.values()) {
      if (everyone || s.owner().equals(user)) {
        out.add(s);
      }
    }
    out.sort(Comparator.comparing(WorkerSession::openedAt).thenComparing(WorkerSession::id));
    return out;
  }

  /**
   * Closes a session: its launchers are told DONE (each closes its worker's input and gives it 2 s
   * to exit), the launch is stopped if it outlives that, and the session's directory goes.
   */
  public void close(WorkerSession s) {
    if (open.remove(s.id()) == null) {
      return; // closed by another request meanwhile
    }
    s.dispatcher().close();
    RunningJob launchers = s.launchers();
    try {
      launchers.onExit().get(killGrace.toSeconds() + 10, TimeUnit.SECONDS);
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      launchers.terminate(killGrace);
      try {
        launchers.onExit().get(killGrace.toSeconds() + 10, TimeUnit.SECONDS);
      } catch (TimeoutException | java.util.concurrent.ExecutionException again) {
        LOG.warn("worker session {}: its launchers did not end: {}", s.id(), again.toString());
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    removeQuietly(s.id());
    LOG.info("worker session {} of {} closed", s.id(), s.owner());
  }

  private void closeIdle() {
    Instant now = clock.instant();
    for (WorkerSession s : List.copyOf(open.values())) {
      try {
        if (s.lastUsed().plus(limits.idleTimeout()).isBefore(now)) {
          LOG.info(
              "worker session {} of {}: unused for {}, closed",
              s.id(),
              s.owner(),
              limits.idleTimeout());
          close(s);
        }
      } catch (RuntimeException e) {
        LOG.warn("worker session {}: closing it when idle failed", s.id(), e);
      }
    }
  }

  private void removeQuietly(String id) {
    try {
      launch.remove(id);
    } catch (IOException | RuntimeException e) {
      LOG.warn("worker session {}: its directory was not removed: {}", id, e.toString());
    }
  }

  private static String newId() {
    char[] id = new char[26]; // 130 random bits
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_CHARS[RANDOM.nextInt(ID_CHARS.length)];
    }
    return new String(id);
  }

  private static String hostPort(String host, int port) {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }

  /** Closes every session (at shutdown). */
  @Override
  public void close() {
    reaper.shutdownNow();
    for (WorkerSession s : List.copyOf(open.values())) {
      try {
        close(s);
      } catch (RuntimeException e) {
        LOG.warn("worker session {}: closing it at shutdown failed", s.id(), e);
      }
    }
  }
}
