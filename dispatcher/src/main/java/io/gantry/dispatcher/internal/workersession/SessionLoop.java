package io.gantry.dispatcher.internal.workersession;

import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.dispatcher.internal.wire.Connection;
import io.gantry.dispatcher.internal.wire.Frames;
import io.gantry.dispatcher.internal.wire.WireLimits;
import io.gantry.dispatcher.internal.wire.WireLoop;
import io.gantry.dispatcher.internal.workersession.WorkerConnection.Phase;
import io.gantry.dispatcher.workersession.Completion;
import io.gantry.dispatcher.workersession.CompletionState;
import io.gantry.dispatcher.workersession.SessionOptions;
import io.gantry.dispatcher.workersession.SessionStatus;
import io.gantry.dispatcher.workersession.SessionStatus.State;
import io.gantry.dispatcher.workersession.WorkerProgram;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's dispatcher: a single thread with a {@link Selector} over the listening socket and
 * every launcher's connection. Each turn of the loop:
 *
 * <ol>
 *   <li>reads what launchers sent ({@link WireLoop} checks HELLOs and welcomes the launchers it
 *       lets in, as many as the session has workers): the first REQUEST is answered with WORKER;
 *       ANSWERS complete the oldest messages their worker holds; WORKER_ENDED gives the worker's
 *       unanswered messages back to the queue and starts it again (up to the session's restarts);
 *   <li>takes the messages clients submitted since the last turn into the queue;
 *   <li>tops up every worker to its window from the queue (HIGH first), one MESSAGES frame per
 *       worker and turn, sharing the queue evenly when it is short;
 *   <li>writes the frames, and closes connections that stayed silent past their HELLO deadline.
 * </ol>
 *
 * Completions go to a queue clients take from ({@link #completions}). When no worker is left, the
 * session is BROKEN: what is still queued is completed ABANDONED.
 */
public final class SessionLoop extends WireLoop<WorkerConnection> implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(SessionLoop.class);
  private static final int MAX_FRAME_PAYLOAD = 2 << 20;
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(6);

  private final String sessionId;
  private final WorkerProgram program;
  private final SessionOptions options;
  private final SessionMessages queue = new SessionMessages();
  private final ConcurrentLinkedQueue<SessionMessages.Msg> inbox = new ConcurrentLinkedQueue<>();
  private final BlockingQueue<Completion> completions = new LinkedBlockingQueue<>();

  /** Lines of messages not yet answered plus answers not yet taken, for the byte budget. */
  private final AtomicLong heldBytes = new AtomicLong();

  private volatile SessionStatus status;
  private volatile boolean stopping;
  private volatile String failure;
  private State state = State.STARTING;
  private String problem = "";
  private int workersSeen;
  private int restarts;

  /**
   * Counted before the completion is queued, and read live by {@link #status()}: a client that has
   * taken an answer sees a status that counts it (the rest of the status is as of the last turn).
   */
  private final AtomicLong answered = new AtomicLong();

  private final AtomicLong failed = new AtomicLong();

  public SessionLoop(
      String sessionId,
      ServerSocketChannel server,
      byte[] secret,
      WorkerProgram program,
      SessionOptions options)
      throws IOException {
    super(
        LOG,
        "session",
        sessionId,
        server,
        secret,
        new WireLimits(
            options.workers(),
            SessionFrames.MAX_INBOUND,
            options.maxUnauthenticated(),
            options.helloTimeout(),
            options.heartbeat()));
    this.sessionId = sessionId;
    this.program = program;
    this.options = options;
    status = snapshot();
  }

  /**
   * A message as submitted: its id, its escaped line and its priority. The line is handed over,
   * never copied or compared: the array is the message.
   */
  @SuppressWarnings("ArrayRecordComponent") // handed over once, never compared or exposed
  public record Submitted(long id, byte[] line, TaskPriority priority) {}

  /** Hands submitted messages to the loop (any thread). */
  public void submit(List<Submitted> batch) {
    for (Submitted s : batch) {
      inbox.add(new SessionMessages.Msg(s.id(), s.line(), s.priority()));
    }
    selector.wakeup();
  }

  public BlockingQueue<Completion> completions() {
    return completions;
  }

  /**
   * Reserves {@code bytes} of the held-bytes budget for a batch about to be submitted; false (and
   * nothing reserved) when it would go past the budget. Any thread.
   */
  public boolean reserve(long bytes) {
    long now = heldBytes.addAndGet(bytes);
    if (now > options.maxHeldBytes()) {
      heldBytes.addAndGet(-bytes);
      return false;
    }
    return true;
  }

  /** Completions were taken: their answers leave the budget, and giving out may resume. */
  public void taken(List<Completion> batch) {
    long bytes = 0;
    for (Completion c : batch) {
      bytes += c.output().length();
    }
    heldBytes.addAndGet(-bytes);
    selector.wakeup();
  }

  /** A message ended: its line leaves the budget, its answer (if any) enters it. */
  private void complete(SessionMessages.Msg m, Completion c) {
    heldBytes.addAndGet(c.output().length() - (long) m.line.length);
    completions.add(c);
  }

  public SessionStatus status() {
    SessionStatus s = status;
    return new SessionStatus(
        s.state(),
        s.workers(),
        s.queued(),
        s.inFlight(),
        s.completed(),
        answered.get(),
        failed.get(),
        s.restarts(),
        s.problem());
  }

  /** Breaks the session from outside (its launchers ended); any thread. */
  public void fail(String why) {
    failure = why;
    selector.wakeup();
  }

  /** Asks the loop to tell every launcher DONE and stop; any thread. */
  public void stop() {
    stopping = true;
    selector.wakeup();
  }

  @Override
  public void run() {
    try {
      while (!stopping) {
        select(250);
        endTurn();
      }
      closeGracefully();
    } catch (IOException | RuntimeException e) {
      LOG.error("session {}: the dispatcher failed", sessionId, e);
      breakSession("the session's dispatcher failed: " + e);
    } finally {
      closeConnections();
    }
  }

  @Override
  protected WorkerConnection connection(Connection.Wiring wiring) {
    return new WorkerConnection(wiring);
  }

  @Override
  protected boolean accepting() {
    return !stopping;
  }

  @Override
  protected String closedReason() {
    return stopping || state == State.BROKEN ? "the session is over" : null;
  }

  @Override
  protected void welcome(WorkerConnection c) {
    c.number = ++workersSeen;
    c.send(welcomeFrame(0));
    c.phase = Phase.ASKING;
  }

  @Override
  protected void frame(WorkerConnection c, byte type, ByteBuffer f) throws IOException {
    switch (c.phase) {
      case GREETING -> throw new Connection.ProtocolException("a message before HELLO");
      case ASKING -> {
        if (type != Frames.REQUEST || f.get() != 0) {
          throw new Connection.ProtocolException("message type " + type + " before WORKER");
        }
        c.send(SessionFrames.worker(program, options.maxMessageBytes()));
        c.phase = Phase.RELAYING;
        if (state == State.STARTING) {
          state = State.OPEN;
        }
      }
      case RELAYING -> {
        if (type == SessionFrames.ANSWERS) {
          answers(c, f);
        } else if (type == SessionFrames.WORKER_ENDED) {
          SessionFrames.WorkerEnded ended = SessionFrames.workerEnded(f);
          workerEnded(c, ended.how(), ended.code());
        } else {
          throw new Connection.ProtocolException("message type " + type);
        }
      }
      case CLOSING -> {
        // answers and ends that crossed DONE on the wire: nothing waits for them any more
      }
    }
  }

  private void answers(WorkerConnection c, ByteBuffer f) throws IOException {
    for (SessionFrames.Answer a : SessionFrames.answers(f)) {
      long id = a.id();
      SessionMessages.Msg m = c.inFlight.pollFirst();
      if (m == null || m.id != id) {
        throw new Connection.ProtocolException("an answer to message " + id + " out of turn");
      }
      answered.incrementAndGet();
      complete(
          m,
          new Completion(
              id, CompletionState.ANSWERED, a.line(), a.truncated(), m.attempts, c.number));
    }
  }

  /** The worker ended: its messages go back, and it is started again while restarts are left. */
  private void workerEnded(WorkerConnection c, int how, int code) throws IOException {
    String what =
        switch (how) {
          case 0 -> "exited with status " + code;
          case 1 -> "was killed by signal " + code;
          case 3 -> "could not be started (errno " + code + ")";
          default -> throw new Connection.ProtocolException("end code " + how);
        };
    int held = c.inFlight.size();
    giveBack(c);
    if (how == 3) {
      problem = "the worker program " + program.executable() + " " + what;
      LOG.warn("session {}: {} {}", sessionId, c.name(), problem);
      retire(c);
    } else if (restarts < options.maxRestarts()) {
      restarts++;
      LOG.warn(
          "session {}: {} {} holding {} message(s): started again ({} of {} restarts)",
          sessionId,
          c.name(),
          what,
          held,
          restarts,
          options.maxRestarts());
      c.send(SessionFrames.worker(program, options.maxMessageBytes()));
    } else {
      problem = "workers ended more than " + options.maxRestarts() + " times; the last " + what;
      LOG.warn("session {}: {} {}: out of restarts, not replaced", sessionId, c.name(), what);
      retire(c);
    }
  }

  private void retire(WorkerConnection c) throws IOException {
    c.send(Frames.done());
    c.phase = Phase.CLOSING;
    flush(c);
  }

  /**
   * A dead worker's messages go back to the front of their priority. Only the oldest was running (a
   * worker answers in order): it counts as an attempt, and is LOST once out of tries; the ones
   * queued behind it on the worker's input never started, so their attempt is given back.
   */
  private void giveBack(WorkerConnection c) {
    SessionMessages.Msg running = c.inFlight.peekFirst();
    Iterator<SessionMessages.Msg> newestFirst = c.inFlight.descendingIterator();
    while (newestFirst.hasNext()) {
      SessionMessages.Msg m = newestFirst.next();
      if (m != running) {
        m.attempts--;
        queue.requeue(m);
      } else if (m.attempts <= options.retries()) {
        queue.requeue(m);
      } else {
        failed.incrementAndGet();
        complete(m, new Completion(m.id, CompletionState.LOST, "", false, m.attempts, c.number));
      }
    }
    c.inFlight.clear();
  }

  @Override
  protected void dropped(WorkerConnection c, String why) {
    if (c.phase == Phase.RELAYING || c.phase == Phase.ASKING) {
      LOG.warn(
          "session {}: launcher of {} vanished ({}) holding {} message(s)",
          sessionId,
          c.name(),
          why,
          c.inFlight.size());
      giveBack(c);
      c.phase = Phase.CLOSING;
    }
  }

  private void endTurn() throws IOException {
    String f = failure;
    if (f != null && state != State.BROKEN) {
      breakSession(f);
    }
    SessionMessages.Msg m;
    while ((m = inbox.poll()) != null) {
      if (state == State.BROKEN) {
        failed.incrementAndGet();
        complete(m, new Completion(m.id, CompletionState.ABANDONED, "", false, 0, 0));
      } else {
        queue.add(m);
      }
    }
    assign();
    flushAndExpire();
    if (state == State.OPEN && workersSeen >= options.workers() && live() == 0) {
      breakSession(problem.isEmpty() ? "every worker has ended" : problem);
    }
    status = snapshot();
  }

  private int live() {
    int n = 0;
    for (WorkerConnection c : connections) {
      if (c.phase == Phase.ASKING || c.phase == Phase.RELAYING) {
        n++;
      }
    }
    return n;
  }

  /** Tops every worker up to its window; a short queue is shared evenly among the workers. */
  private void assign() {
    if (queue.size() == 0 || heldBytes.get() > options.maxHeldBytes()) {
      return; // over the budget: answers wait to be taken first
    }
    List<WorkerConnection> ready = new ArrayList<>(connections.size());
    for (WorkerConnection c : connections) {
      if (c.phase == Phase.RELAYING && c.inFlight.size() < options.window()) {
        ready.add(c);
      }
    }
    if (ready.isEmpty()) {
      return;
    }
    int share = Math.max(1, (queue.size() + ready.size() - 1) / ready.size());
    for (WorkerConnection c : ready) {
      int room = Math.min(options.window() - c.inFlight.size(), share);
      List<SessionMessages.Msg> batch = new ArrayList<>(Math.min(room, queue.size()));
      int bytes = 0;
      while (batch.size() < room && bytes < MAX_FRAME_PAYLOAD) {
        SessionMessages.Msg m = queue.poll();
        if (m == null) {
          break;
        }
        m.attempts++;
        c.inFlight.addLast(m);
        batch.add(m);
        bytes += 12 + m.line.length;
      }
      if (batch.isEmpty()) {
        return;
      }
      c.send(SessionFrames.messages(batch));
    }
  }

  private void breakSession(String why) {
    if (state == State.BROKEN) {
      return;
    }
    state = State.BROKEN;
    problem = why;
    LOG.warn("session {}: broken: {}", sessionId, why);
    for (WorkerConnection c : connections) {
      giveBack(c);
    }
    SessionMessages.Msg m;
    while ((m = queue.poll()) != null) {
      failed.incrementAndGet();
      complete(m, new Completion(m.id, CompletionState.ABANDONED, "", false, m.attempts, 0));
    }
    status = snapshot();
  }

  /**
   * Tells every launcher DONE and waits (a few seconds at most) for them to hang up: a launcher
   * that reads DONE lets its worker finish and exit, where a reset connection would kill it.
   */
  private void closeGracefully() throws IOException {
    for (WorkerConnection c : connections) {
      if (c.phase != Phase.CLOSING) {
        c.send(Frames.done());
        c.phase = Phase.CLOSING;
      }
    }
    long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
    while (!connections.isEmpty() && System.nanoTime() < deadline) {
      for (WorkerConnection c : List.copyOf(connections)) {
        try {
          flush(c);
        } catch (IOException e) {
          drop(c, e.getMessage());
        }
      }
      select(100);
    }
  }

  private SessionStatus snapshot() {
    int inFlight = 0;
    for (WorkerConnection c : connections) {
      inFlight += c.inFlight.size();
    }
    State shown = stopping ? State.CLOSED : state;
    return new SessionStatus(
        shown,
        live(),
        queue.size() + inbox.size(),
        inFlight,
        completions.size(),
        answered.get(),
        failed.get(),
        restarts,
        problem);
  }

  private void closeConnections() {
    closeAll();
    status = snapshot();
  }
}
