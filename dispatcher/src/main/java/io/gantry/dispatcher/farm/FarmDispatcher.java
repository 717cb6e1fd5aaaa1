package io.gantry.dispatcher.farm;

import io.gantry.dispatcher.internal.farm.DispatchLoop;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The dispatcher of one task-farm job, alive for the job's lifetime: it listens on a TCP port, lets
 * in the launchers that know the job's secret, hands them tasks from a priority queue and records
 * each final task in the {@link FarmJournal} (protocol: docs/task-farms.md). Tasks the journal
 * already holds are not handed out again, which is how a restarted server resumes a farm.
 *
 * <pre>
 * try (FarmDispatcher d = FarmDispatcher.start(jobId, new InetSocketAddress(loopback, 0),
 *     FarmDispatcher.newSecret(), tasks, launchers, options, FarmJournal.open(file))) {
 *   // start the launchers with GANTRY_FARM_DISPATCHER=d.address() and the secret
 *   Map&lt;Long, TaskResult&gt; results = d.finished().get();
 * }
 * </pre>
 */
public final class FarmDispatcher implements AutoCloseable {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final DispatchLoop loop;
  private final Thread thread;
  private final InetSocketAddress address;
  private final FarmJournal journal;

  private FarmDispatcher(
      DispatchLoop loop, Thread thread, InetSocketAddress address, FarmJournal journal) {
    this.loop = loop;
    this.thread = thread;
    this.address = address;
    this.journal = journal;
  }

  /**
   * Binds {@code bind} (port 0: any free port) and starts dispatching. The dispatcher owns {@code
   * journal} from now on and closes it.
   *
   * @param launchers how many launchers the job starts: at most this many that know the secret are
   *     let in at once, a further one is refused
   * @throws IllegalArgumentException when two tasks share an id or there are none
   */
  public static FarmDispatcher start(
      String jobId,
      InetSocketAddress bind,
      String secret,
      List<FarmTask> tasks,
      int launchers,
      FarmOptions options,
      FarmJournal journal)
      throws IOException {
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("job " + jobId + ": a farm needs at least one task");
    }
    Set<Long> ids = new HashSet<>();
    for (FarmTask t : tasks) {
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("job " + jobId + ": task id " + t.id() + " twice");
      }
    }
    ServerSocketChannel server = ServerSocketChannel.open();
    try {
      server.bind(bind, 1024); // a whole allocation's launchers connect at once
      DispatchLoop loop =
          new DispatchLoop(
              jobId,
              server,
              secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
              tasks,
              launchers,
              options,
              journal);
      Thread thread = new Thread(loop, "gantry-farm-" + jobId);
      thread.setDaemon(true);
      thread.start();
      return new FarmDispatcher(
          loop, thread, (InetSocketAddress) server.getLocalAddress(), journal);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** A fresh job secret: 256 random bits as 64 hexadecimal characters. */
  public static String newSecret() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** Where launchers connect (the bound address and port). */
  public InetSocketAddress address() {
    return address;
  }

  /**
   * Completes with every task's result once all are final; completes exceptionally when the
   * dispatcher failed or was closed first.
   */
  public CompletableFuture<Map<Long, TaskResult>> finished() {
    return loop.finished();
  }

  public FarmProgress progress() {
    return loop.progress();
  }

  /** The bytes the dispatcher buffers for its connections' input now (tests bound it). */
  long inputBufferBytes() {
    return loop.bufferBytes();
  }

  /** The connections open on the dispatcher's port now (tests bound it). */
  int openConnections() {
    return loop.openConnections();
  }

  /** Stops dispatching, closes every launcher's connection, and syncs and closes the journal. */
  @Override
  public void close() throws IOException {
    loop.stop();
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      journal.close();
    }
  }
}
