package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmJournal;
import io.gantry.dispatcher.farm.FarmOptions;
import io.gantry.dispatcher.farm.FarmProgress;
import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskEnd;
import io.gantry.dispatcher.farm.TaskResult;
import io.gantry.dispatcher.internal.farm.LauncherConnection.Phase;
import io.gantry.dispatcher.internal.wire.Connection;
import io.gantry.dispatcher.internal.wire.Frames;
import io.gantry.dispatcher.internal.wire.WireLimits;
import io.gantry.dispatcher.internal.wire.WireLoop;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One farm's dispatcher: a single thread with a {@link Selector} over the listening socket and
 * every launcher's connection. Each turn of the loop:
 *
 * <ol>
 *   <li>reads what launchers sent ({@link WireLoop} checks HELLOs and welcomes the launchers it
 *       lets in): REQUESTs deliver the previous task's result and park the launcher as waiting for
 *       work;
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
public final class DispatchLoop extends WireLoop<LauncherConnection> implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(DispatchLoop.class);
  private static final long SYNC_INTERVAL_NANOS = 1_000_000_000L;

  private final String jobId;
  private final FarmOptions options;
  private final FarmJournal journal;
  private final int total;
  private final TaskQueue queue = new TaskQueue();
  private final Map<Long, Integer> attempts = new HashMap<>();
  private final ArrayDeque<LauncherConnection> waiting = new ArrayDeque<>();
  private final List<TaskResult> turnResults = new ArrayList<>();
  private final CompletableFuture<Map<Long, TaskResult>> finished = new CompletableFuture<>();
  private final AtomicReference<FarmProgress> progress;
  private volatile boolean stopping;
  private int running;
  private int failed;
  private int lost;
  private long lastSync = System.nanoTime();
  private boolean unsynced;

  /**
   * @param launchers how many launchers the job starts: the most connections let in at once
   */
  public DispatchLoop(
      String jobId,
      ServerSocketChannel server,
      byte[] secret,
      List<FarmTask> tasks,
      int launchers,
      FarmOptions options,
      FarmJournal journal)
      throws IOException {
    super(
        LOG,
        "job",
        jobId,
        server,
        secret,
        new WireLimits(
            launchers,
            FarmFrames.MAX_INBOUND,
            options.maxUnauthenticated(),
            options.helloTimeout(),
            options.heartbeat()));
    this.jobId = jobId;
    this.options = options;
    this.journal = journal;
    this.total = tasks.size();
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
        select(250);
        endTurn();
      }
    } catch (IOException | RuntimeException e) {
      LOG.error("job {}: the farm's dispatcher failed", jobId, e);
      finished.completeExceptionally(e);
    } finally {
      closeConnections();
    }
  }

  @Override
  protected LauncherConnection connection(Connection.Wiring wiring) {
    return new LauncherConnection(wiring);
  }

  @Override
  protected void welcome(LauncherConnection c) {
    c.send(welcomeFrame(options.outputLimit()));
    c.phase = Phase.RUNNING; // its first REQUEST carries no result
    c.task = null;
  }

  @Override
  protected void frame(LauncherConnection c, byte type, ByteBuffer f) throws IOException {
    switch (c.phase) {
      case GREETING -> throw new Connection.ProtocolException("a message before HELLO");
      case WAITING -> throw new Connection.ProtocolException("a message while waiting");
      case RUNNING -> {
        if (type != Frames.REQUEST) {
          throw new Connection.ProtocolException("message type " + type);
        }
        request(c, f);
      }
      case CLOSING -> {
        // a launcher may still send after DONE was queued: ignored
      }
    }
  }

  private void request(LauncherConnection c, ByteBuffer f) throws IOException {
    java.util.Optional<FarmFrames.TaskReport> report = FarmFrames.request(f);
    if (report.isPresent()) {
      FarmFrames.TaskReport r = report.get();
      if (c.task == null || c.task.id() != r.id() || c.attempt != r.attempt()) {
        throw new Connection.ProtocolException("a result for task " + r.id() + " it was not given");
      }
      TaskEnd end =
          TaskEnd.ofWire(r.how())
              .orElseThrow(() -> new Connection.ProtocolException("end code " + r.how()));
      record(
          new TaskResult(
              r.id(),
              end,
              r.code(),
              r.attempt(),
              c.host(),
              Instant.ofEpochMilli(r.startMillis()),
              r.durationMicros(),
              r.output()));
      running--;
    } else if (c.task != null) {
      throw new Connection.ProtocolException("a request without the running task's result");
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

  /** A closed connection's running task goes back to the queue or, out of retries, is LOST. */
  @Override
  protected void dropped(LauncherConnection c, String why) {
    waiting.remove(c);
    if (c.phase == Phase.RUNNING || c.phase == Phase.WAITING) {
      lost++; // let in, not told DONE
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
        record(new TaskResult(t.id(), TaskEnd.LOST, 0, c.attempt, c.host(), Instant.now(), 0, ""));
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
    flushAndExpire();
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
      c.send(FarmFrames.task(t, attempt, wallMillis));
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
      c.hangUpWhenSent();
    }
    if (!finished.isDone()) {
      journal.sync();
      unsynced = false;
      progress.set(snapshot());
      finished.complete(journal.completed());
    }
  }

  private FarmProgress snapshot() {
    int launchers = (int) connections.stream().filter(Connection::authenticated).count();
    return new FarmProgress(
        total,
        queue.size(),
        running,
        journal.completed().size() + turnResults.size(),
        failed,
        launchers,
        lost);
  }

  private void closeConnections() {
    closeAll();
    if (!finished.isDone()) {
      finished.completeExceptionally(new IllegalStateException("the dispatcher was stopped"));
    }
  }
}
