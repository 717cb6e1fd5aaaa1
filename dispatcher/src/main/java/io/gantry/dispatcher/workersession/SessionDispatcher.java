package io.gantry.dispatcher.workersession;

import io.gantry.dispatcher.internal.workersession.LineEscape;
import io.gantry.dispatcher.internal.workersession.SessionLoop;
import io.gantry.dispatcher.internal.workersession.SessionLoop.Submitted;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The dispatcher of one session of long-lived workers (docs/task-farms.md, "Sessions"): it listens
 * on a TCP port, lets in the session's launchers that know its secret, has each start the worker
 * program, and relays the messages clients {@link #submit} to the workers' standard input and their
 * answers back as completions clients {@link #take}.
 *
 * <pre>
 * try (SessionDispatcher d = SessionDispatcher.start("s1", new InetSocketAddress(loopback, 0),
 *     secret, new WorkerProgram("/opt/pricer", List.of(), Map.of()), SessionOptions.defaults(2))) {
 *   // start 2 gantry-launchers with GANTRY_FARM_DISPATCHER=d.address() and the secret
 *   List&lt;Long&gt; ids = d.submit(List.of(new SessionMessage("call,1,100,0.03,100,1,0.2", NORMAL)));
 *   List&lt;Completion&gt; done = d.take(1000, Duration.ofSeconds(30));
 * }
 * </pre>
 */
public final class SessionDispatcher implements AutoCloseable {
  private final SessionLoop loop;
  private final Thread thread;
  private final InetSocketAddress address;
  private final SessionOptions options;
  private final AtomicLong nextId = new AtomicLong();
  private final AtomicLong held = new AtomicLong();

  private SessionDispatcher(
      SessionLoop loop, Thread thread, InetSocketAddress address, SessionOptions options) {
    this.loop = loop;
    this.thread = thread;
    this.address = address;
    this.options = options;
  }

  /** Binds {@code bind} (port 0: any free port) and starts the session's dispatcher. */
  public static SessionDispatcher start(
      String sessionId,
      InetSocketAddress bind,
      String secret,
      WorkerProgram program,
      SessionOptions options)
      throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open();
    try {
      server.bind(bind, 1024);
      SessionLoop loop =
          new SessionLoop(
              sessionId, server, secret.getBytes(StandardCharsets.UTF_8), program, options);
      Thread thread = new Thread(loop, "gantry-session-" + sessionId);
      thread.setDaemon(true);
      thread.start();
      return new SessionDispatcher(
          loop, thread, (InetSocketAddress) server.getLocalAddress(), options);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Where launchers connect. */
  public InetSocketAddress address() {
    return address;
  }

  /**
   * Queues a batch of messages; answers their ids (increasing, in the batch's order). The batch is
   * taken whole or not at all.
   *
   * @throws IllegalArgumentException naming the first message longer than the session's limit
   * @throws SessionFullException when the batch would go past the held-message limit, or the
   *     session is broken or closed
   */
  public List<Long> submit(List<SessionMessage> batch) throws SessionFullException {
    List<byte[]> lines = new ArrayList<>(batch.size());
    long bytes = 0;
    for (int i = 0; i < batch.size(); i++) {
      byte[] line = LineEscape.escape(batch.get(i).input());
      if (line.length > options.maxMessageBytes()) {
        throw new IllegalArgumentException(
            "message "
                + (i + 1)
                + " of the batch is "
                + line.length
                + " bytes on the worker's line, more than the session's "
                + options.maxMessageBytes());
      }
      lines.add(line);
      bytes += line.length;
    }
    SessionStatus.State state = loop.status().state();
    if (state == SessionStatus.State.BROKEN || state == SessionStatus.State.CLOSED) {
      throw new SessionFullException(
          "the session is " + state.wireName() + ": " + loop.status().problem());
    }
    long now = held.addAndGet(batch.size());
    if (now > options.maxHeld()) {
      held.addAndGet(-batch.size());
      throw new SessionFullException(
          "the session holds "
              + (now - batch.size())
              + " messages not yet taken; "
              + batch.size()
              + " more would pass its limit of "
              + options.maxHeld());
    }
    if (!loop.reserve(bytes)) {
      held.addAndGet(-batch.size());
      throw new SessionFullException(
          "the session holds messages and answers not yet taken; "
              + bytes
              + " bytes more would pass its limit of "
              + options.maxHeldBytes()
              + " bytes");
    }
    List<Submitted> msgs = new ArrayList<>(batch.size());
    List<Long> ids = new ArrayList<>(batch.size());
    synchronized (nextId) { // ids increase in the order batches reach the loop
      for (int i = 0; i < batch.size(); i++) {
        long id = nextId.incrementAndGet();
        ids.add(id);
        msgs.add(new Submitted(id, lines.get(i), batch.get(i).priority()));
      }
      loop.submit(msgs);
    }
    return ids;
  }

  /**
   * Waits up to {@code timeout} for a first completion, then answers it with every other one ready
   * now, {@code max} at most, oldest first. Answers an empty list at the timeout, or at once when
   * the session is broken or closed and nothing is left to take.
   */
  public List<Completion> take(int max, Duration timeout) throws InterruptedException {
    BlockingQueue<Completion> q = loop.completions();
    List<Completion> out = new ArrayList<>(Math.min(max, 1024));
    long deadline = System.nanoTime() + timeout.toNanos();
    Completion first = q.poll();
    while (first == null) {
      SessionStatus.State s = loop.status().state();
      if (s == SessionStatus.State.BROKEN || s == SessionStatus.State.CLOSED) {
        first = q.poll(); // the last completions a breaking loop added
        if (first == null) {
          return out;
        }
        break;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return out;
      }
      first = q.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
    }
    out.add(first);
    q.drainTo(out, max - 1);
    held.addAndGet(-out.size());
    loop.taken(out);
    return out;
  }

  public SessionStatus status() {
    return loop.status();
  }

  /** The bytes the dispatcher buffers for its connections' input now (tests bound it). */
  long inputBufferBytes() {
    return loop.bufferBytes();
  }

  /** The connections open on the dispatcher's port now (tests bound it). */
  int openConnections() {
    return loop.openConnections();
  }

  /** Breaks the session from outside, e.g. when its launchers ended. */
  public void fail(String why) {
    loop.fail(why);
  }

  /**
   * Tells every launcher DONE (each closes its worker's input and lets it exit), waits a few
   * seconds for them to hang up, and stops. Messages not yet answered are dropped.
   */
  @Override
  public void close() {
    loop.stop();
    try {
      thread.join(Duration.ofSeconds(15).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
