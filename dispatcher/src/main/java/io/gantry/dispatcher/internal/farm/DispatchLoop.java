package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmJournal;
import io.gantry.dispatcher.farm.FarmOptions;
import io.gantry.dispatcher.farm.FarmProgress;
import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskEnd;
import io.gantry.dispatcher.farm.TaskResult;
import io.gantry.dispatcher.internal.farm.LauncherConnection.Phase;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One farm's dispatcher: a single thread with a {@link Selector} over the listening socket and
 * every launcher's connection. Each turn of the loop:
 *
 * <ol>
 *   <li>reads what launchers sent: HELLOs are checked (version, secret), REQUESTs deliver the
 *       previous task's result and park the launcher as waiting for work;
 *   <li>appends the turn's results to the journal in one write (the batching that keeps the
 *       per-task cost low: one write, and at most one fsync a second, for however many results
 *       arrived together), before any launcher hears back;
 *   <li>hands the queue's next tasks to waiting launchers in the order they asked, or DONE when
 *       every task is final;
 *   <li>writes the replies, and closes connections that stayed silent past their HELLO deadline.
 * </ol>
 *
 * A launcher whose connection ends while it runs a task gives the task back to the front of the
 * queue, until the task has been handed out 1 + retries times; then the task is final as LOST.
 */
public final class DispatchLoop implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(DispatchLoop.class);
  private static final long SYNC_INTERVAL_NANOS = 1_000_000_000L;

  private final String jobId;
  private final Selector selector;
  private final ServerSocketChannel server;
  private final byte[] secret;
  private final FarmOptions options;
  private final FarmJournal journal;
  private final int total;
  private final TaskQueue queue = new TaskQueue();
  private final Map<Long, Integer> attempts = new HashMap<>();
  private final Set<LauncherConnection> connections = new HashSet<>();
  private final ArrayDeque<LauncherConnection> waiting = new ArrayDeque<>();
  private final List<TaskResult> turnResults = new ArrayList<>();
  private final CompletableFuture<Map<Long, TaskResult>> finished = new CompletableFuture<>();
  private final AtomicReference<FarmProgress> progress;
  private volatile boolean stopping;
  private int running;
  private int failed;
  private long lastSync = System.nanoTime();
  private boolean unsynced;

  public DispatchLoop(
      String jobId,
      ServerSocketChannel server,
      byte[] secret,
      List<FarmTask> tasks,
      FarmOptions options,
      FarmJournal journal)
      throws IOException {
    this.jobId = jobId;
    this.server = server;
    this.secret = secret.clone();
    this.options = options;
    this.journal = journal;
    this.total = tasks.size();
    this.selector = Selector.open();
    server.configureBlocking(false);
    server.register(selector, SelectionKey.OP_ACCEPT);
    Map<Long, TaskResult> done = journal.completed();
    for (FarmTask t : tasks) {
      if (!done.containsKey(t.id())) {
        queue.add(t);
      }
    }
    failed = (int) done.values().stream().filter(r -> !r.succeeded()).count();
    progress = new AtomicReference<>(snapshot());
  }

  public CompletableFuture<Map<Long, TaskResult>> finished() {
    return finished;
  }

  public FarmProgress progress() {
    return progress.get();
  }

  /** Asks the loop to stop; it closes every connection and the listening socket. */
  public void stop() {
    stopping = true;
    selector.wakeup();
  }

  @Override
  public void run() {
    try {
      completeIfDone();
      while (!stopping) {
        selector.select(this::handle, 250);
        endTurn();
      }
    } catch (IOException | RuntimeException e) {
      LOG.error("job {}: the farm's dispatcher failed", jobId, e);
      finished.completeExceptionally(e);
    } finally {
      closeAll();
    }
  }

  private void handle(SelectionKey key) {
    try {
      if (key.isAcceptable()) {
        accept();
        return;
      }
      LauncherConnection c = (LauncherConnection) key.attachment();
      if (key.isValid() && key.isReadable()) {
        readFrom(c);
      }
      if (key.isValid() && key.isWritable()) {
        flush(c);
      }
    } catch (IOException e) {
      if (key.attachment() instanceof LauncherConnection c) {
        drop(c, e.getMessage());
      } else {
        LOG.warn("job {}: accepting a launcher failed: {}", jobId, e.toString());
      }
    }
  }

  private void accept() throws IOException {
    SocketChannel ch;
    while ((ch = server.accept()) != null) {
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true); // notices a lost node, eventually
      SelectionKey k = ch.register(selector, SelectionKey.OP_READ);
      LauncherConnection c =
          new LauncherConnection(ch, k, Instant.now().plus(options.helloTimeout()));
      k.attach(c);
      connections.add(c);
    }
  }

  private void readFrom(LauncherConnection c) throws IOException {
    List<ByteBuffer> frames = c.read();
    if (frames == null) {
      drop(c, "the launcher closed its connection");
      return;
    }
    for (ByteBuffer f : frames) {
      try {
        onFrame(c, f);
      } catch (BufferUnderflowException e) {
        throw new LauncherConnection.ProtocolException("a truncated message");
      }
      if (!c.key.isValid()) {
        return;
      }
    }
  }

  private void onFrame(LauncherConnection c, ByteBuffer f) throws IOException {
    byte type = f.get();
    switch (c.phase) {
      case GREETING -> {
        if (type != Frames.HELLO) {
          throw new LauncherConnection.ProtocolException("a message before HELLO");
        }
        hello(c, f);
      }
      case WAITING -> throw new LauncherConnection.ProtocolException("a message while waiting");
      case RUNNING -> {
        if (type != Frames.REQUEST) {
          throw new LauncherConnection.ProtocolException("message type " + type);
        }
        request(c, f);
      }
      case CLOSING -> {
        // a launcher may still send after REFUSE/DONE was queued: ignored
      }
    }
  }

  private void hello(LauncherConnection c, ByteBuffer f) throws IOException {
    int version = f.getInt();
    byte[] offered = Frames.bytes(f);
    String host = Frames.string(f);
    long pid = Integer.toUnsignedLong(f.getInt());
    if (version != Frames.VERSION) {
      refuse(
          c,
          "protocol version " + version + " is not spoken here (this is " + Frames.VERSION + ")");
      return;
    }
    if (!MessageDigest.isEqual(offered, secret)) {
      LOG.warn(
          "job {}: refused a launcher from {}: wrong secret",
          jobId,
          c.channel.socket().getRemoteSocketAddress());
      refuse(c, "wrong secret for this job");
      return;
    }
    c.host = host.length() > 255 ? host.substring(0, 255) : host.replaceAll("\\p{Cntrl}", "?");
    c.pid = pid;
    c.send(Frames.welcome(options.outputLimit()));
    c.phase = Phase.RUNNING; // its first REQUEST carries no result
    c.task = null;
  }

  private void request(LauncherConnection c, ByteBuffer f) throws IOException {
    boolean hasResult = f.get() != 0;
    if (hasResult) {
      long id = f.getLong();
      int attempt = f.getInt();
      int how = f.get() & 0xff;
      int code = f.getInt();
      long startMs = f.getLong();
      long durationUs = f.getLong();
      String output = Frames.string(f);
      if (c.task == null || c.task.id() != id || c.attempt != attempt) {
        throw new LauncherConnection.ProtocolException(
            "a result for task " + id + " it was not given");
      }
      TaskEnd end =
          TaskEnd.ofWire(how)
              .orElseThrow(() -> new LauncherConnection.ProtocolException("end code " + how));
      record(
          new TaskResult(
              id, end, code, attempt, c.host, Instant.ofEpochMilli(startMs), durationUs, output));
      running--;
    } else if (c.task != null) {
      throw new LauncherConnection.ProtocolException("a request without the running task's result");
    }
    c.task = null;
    c.phase = Phase.WAITING;
    waiting.addLast(c);
  }

  private void record(TaskResult r) {
    turnResults.add(r);
    if (!r.succeeded()) {
      failed++;
    }
  }

  private void refuse(LauncherConnection c, String reason) throws IOException {
    c.send(Frames.refuse(reason));
    c.phase = Phase.CLOSING;
    flush(c);
  }

  /** Closes a connection; its running task goes back to the queue or, out of retries, is LOST. */
  private void drop(LauncherConnection c, String why) {
    connections.remove(c);
    waiting.remove(c);
    c.key.cancel();
    try {
      c.channel.close();
    } catch (IOException e) {
      LOG.debug("job {}: closing {}: {}", jobId, c.name(), e.toString());
    }
    if (c.phase == Phase.RUNNING && c.task != null) {
      running--;
      FarmTask t = c.task;
      if (attempts.getOrDefault(t.id(), 0) <= options.retries()) {
        LOG.warn(
            "job {}: launcher {} vanished ({}) running task {}: queued again",
            jobId,
            c.name(),
            why,
            t.id());
        queue.requeue(t);
      } else {
        LOG.warn(
            "job {}: launcher {} vanished running task {}, out of retries",
            jobId,
            c.name(),
            t.id());
        record(new TaskResult(t.id(), TaskEnd.LOST, 0, c.attempt, c.host, Instant.now(), 0, ""));
      }
      c.task = null;
    } else if (c.phase != Phase.CLOSING && c.phase != Phase.WAITING) {
      LOG.debug("job {}: launcher {} left: {}", jobId, c.name(), why);
    }
  }

  private void endTurn() throws IOException {
    if (!turnResults.isEmpty()) {
      journal.append(turnResults);
      turnResults.clear();
      unsynced = true;
    }
    if (unsynced && System.nanoTime() - lastSync > SYNC_INTERVAL_NANOS) {
      journal.sync();
      unsynced = false;
      lastSync = System.nanoTime();
    }
    assign();
    completeIfDone();
    for (LauncherConnection c : List.copyOf(connections)) {
      if (c.hasOutput()) {
        try {
          flush(c);
        } catch (IOException e) {
          drop(c, e.getMessage());
        }
      } else if (c.phase == Phase.GREETING && Instant.now().isAfter(c.helloDeadline)) {
        drop(c, "no HELLO in time");
      }
    }
    progress.set(snapshot());
  }

  private void assign() {
    long wallMillis = options.taskWallTime() == null ? 0 : options.taskWallTime().toMillis();
    while (!waiting.isEmpty()) {
      FarmTask t = queue.poll();
      if (t == null) {
        return;
      }
      LauncherConnection c = waiting.pollFirst();
      int attempt = attempts.merge(t.id(), 1, Integer::sum);
      c.task = t;
      c.attempt = attempt;
      c.phase = Phase.RUNNING;
      running++;
      c.send(Frames.task(t, attempt, wallMillis));
    }
  }

  private void completeIfDone() throws IOException {
    if (journal.completed().size() < total) {
      return;
    }
    while (!waiting.isEmpty()) {
      LauncherConnection c = waiting.pollFirst();
      c.send(Frames.done());
      c.phase = Phase.CLOSING;
    }
    if (!finished.isDone()) {
      journal.sync();
      unsynced = false;
      progress.set(snapshot());
      finished.complete(journal.completed());
    }
  }

  private void flush(LauncherConnection c) throws IOException {
    if (c.flush()) {
      c.key.interestOps(SelectionKey.OP_READ);
      if (c.phase == Phase.CLOSING) {
        drop(c, "told DONE or REFUSE");
      }
    } else {
      c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }
  }

  private FarmProgress snapshot() {
    int launchers = (int) connections.stream().filter(c -> c.phase != Phase.GREETING).count();
    return new FarmProgress(
        total,
        queue.size(),
        running,
        journal.completed().size() + turnResults.size(),
        failed,
        launchers);
  }

  private void closeAll() {
    for (LauncherConnection c : List.copyOf(connections)) {
      try {
        c.channel.close();
      } catch (IOException e) {
        LOG.debug("job {}: closing {}: {}", jobId, c.name(), e.toString());
      }
    }
    try {
      server.close();
      selector.close();
    } catch (IOException e) {
      LOG.debug("job {}: closing the dispatcher: {}", jobId, e.toString());
    }
    if (!finished.isDone()) {
      finished.completeExceptionally(new IllegalStateException("the dispatcher was stopped"));
    }
  }
}
