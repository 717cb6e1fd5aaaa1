package io.gantry.dispatcher.internal.wire;

import io.gantry.dispatcher.LauncherHeartbeat;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * The launcher wire protocol's connection handling, shared by farms and sessions: a {@link
 * Selector} over the listening socket and every launcher's connection, run by one thread. It
 * accepts connections within the {@link WireLimits}, reads frames, checks each HELLO (size,
 * version, secret, the job's launcher count) and answers a bad one with REFUSE, writes what is
 * queued, closes connections that did not say HELLO in time and accepted ones silent past their
 * heartbeat's limit ({@link LauncherLiveness}). A protocol adds only its own frames: {@link
 * #welcome} for an accepted HELLO (answered with {@link #welcomeFrame}), {@link #frame} for each
 * later frame but HEARTBEAT, {@link #dropped} when a connection ends.
 *
 * <p>Before authentication a connection costs at most a {@link Frames#MAX_HELLO} buffer, and at
 * most {@link WireLimits#maxUnauthenticated} of them exist at once: while that many wait for their
 * HELLO, the loop stops accepting, and new connections wait in the kernel's listen backlog.
 */
public abstract class WireLoop<C extends Connection> {
  protected final Logger log;
  protected final String what;
  private final String kind;
  protected final Selector selector;
  protected final Set<C> connections = new LinkedHashSet<>();
  private final ServerSocketChannel server;
  private final SelectionKey serverKey;
  private final byte[] secret;
  private final WireLimits limits;
  private final long silenceLimitNanos;
  private final AtomicLong bufferBytes = new AtomicLong();
  private int unauthenticated;
  private int authenticated;
  private volatile int open;

  /**
   * @param kind what the dispatcher serves, for logs and refusals: "job" or "session"
   * @param id the job's or session's id
   */
  protected WireLoop(
      Logger log,
      String kind,
      String id,
      ServerSocketChannel server,
      byte[] secret,
      WireLimits limits)
      throws IOException {
    this.log = log;
    this.kind = kind;
    this.what = kind + " " + id;
    this.server = server;
    this.secret = secret.clone();
    this.limits = limits;
    this.silenceLimitNanos = LauncherLiveness.silenceLimitNanos(limits.heartbeat());
    this.selector = Selector.open();
    server.configureBlocking(false);
    this.serverKey = server.register(selector, SelectionKey.OP_ACCEPT);
  }

  /** A new connection of the protocol's kind. */
  protected abstract C connection(Connection.Wiring wiring);

  /** Why a correct HELLO is refused now (the session is over), or null to let it in. */
  protected String closedReason() {
    return null;
  }

  /** The HELLO of {@code c} was accepted: answer it (WELCOME) and set the protocol's state. */
  protected abstract void welcome(C c) throws IOException;

  /** The WELCOME for an accepted HELLO: the protocol version, the output limit, the heartbeat. */
  protected final ByteBuffer welcomeFrame(int outputLimit) {
    return Frames.welcome(outputLimit, limits.heartbeat());
  }

  /** A frame of an accepted launcher; {@code payload} is past the type byte. */
  protected abstract void frame(C c, byte type, ByteBuffer payload) throws IOException;

  /** {@code c} was closed (the peer hung up, broke the protocol, or was told to go). */
  protected abstract void dropped(C c, String why);

  /** Whether new connections are still taken (a closing session turns them away). */
  protected boolean accepting() {
    return true;
  }

  /** Handles what is ready, waiting up to {@code timeoutMillis} for something to be. */
  protected final void select(long timeoutMillis) throws IOException {
    selector.select(this::handle, timeoutMillis);
  }

  /** The bytes of every connection's input buffer now (any thread; tests watch it). */
  public final long bufferBytes() {
    return bufferBytes.get();
  }

  /** The connections open now, authenticated or not (any thread; tests watch it). */
  public final int openConnections() {
    return open;
  }

  private void handle(SelectionKey key) {
    try {
      if (key == serverKey) {
        if (key.isValid() && key.isAcceptable()) {
          accept();
        }
        return;
      }
      @SuppressWarnings("unchecked") // every other key carries one of our connections
      C c = (C) key.attachment();
      if (key.isValid() && key.isReadable()) {
        readFrom(c);
      }
      if (key.isValid() && key.isWritable()) {
        flush(c);
      }
    } catch (IOException e) {
      if (key != serverKey) {
        @SuppressWarnings("unchecked")
        C c = (C) key.attachment();
        drop(c, e.getMessage());
      } else {
        log.warn("{}: accepting a launcher failed: {}", what, e.toString());
      }
    }
  }

  private void accept() throws IOException {
    SocketChannel ch;
    while (unauthenticated < limits.maxUnauthenticated() && (ch = server.accept()) != null) {
      if (!accepting()) {
        ch.close();
        continue;
      }
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      LauncherLiveness.watch(ch);
      SelectionKey k = ch.register(selector, SelectionKey.OP_READ);
      C c =
          connection(
              new Connection.Wiring(
                  ch,
                  k,
                  Instant.now().plus(limits.helloTimeout()),
                  limits.maxFrame(),
                  bufferBytes));
      k.attach(c);
      connections.add(c);
      unauthenticated++;
      open = connections.size();
    }
    pauseAcceptingWhenFull();
  }

  /** At the cap, the listener is not watched: the kernel holds further connections. */
  private void pauseAcceptingWhenFull() {
    if (serverKey.isValid()) {
      serverKey.interestOps(
          unauthenticated < limits.maxUnauthenticated() ? SelectionKey.OP_ACCEPT : 0);
    }
  }

  private void readFrom(C c) throws IOException {
    for (; ; ) {
      List<ByteBuffer> frames = c.read();
      if (frames == null) {
        drop(c, "the launcher closed its connection");
        return;
      }
      if (frames.isEmpty()) {
        return;
      }
      for (ByteBuffer f : frames) {
        if (!c.key.isValid() || c.hangsUpWhenSent()) {
          return; // refused or told DONE: what it still sends is not read
        }
        try {
          onFrame(c, f);
        } catch (BufferUnderflowException e) {
          throw new Connection.ProtocolException("a truncated message");
        }
      }
    }
  }

  private void onFrame(C c, ByteBuffer f) throws IOException {
    if (c.authenticated()) {
      if (!Frames.heartbeat(f)) { // a heartbeat only shows the launcher alive (read() noted it)
        byte type = f.get();
        frame(c, type, f);
      }
      return;
    }
    if (f.get() != Frames.HELLO) {
      throw new Connection.ProtocolException("a message before HELLO");
    }
    hello(c, f);
  }

  private void hello(C c, ByteBuffer f) throws IOException {
    Hello said = Hello.read(f);
    int version = said.version();
    byte[] offered = said.secret();
    if (version != Frames.VERSION) {
      refuse(
          c,
          "protocol version "
              + version
              + " is not spoken here (this is "
              + Frames.VERSION
              + "): use the gantry-launcher of this server's release");
      return;
    }
    if (!MessageDigest.isEqual(offered, secret)) {
      log.warn(
          "{}: refused a launcher from {}: wrong secret",
          what,
          c.channel.socket().getRemoteSocketAddress());
      refuse(c, "wrong secret for this " + kind);
      return;
    }
    String closed = closedReason();
    if (closed != null) {
      refuse(c, closed);
      return;
    }
    if (authenticated >= limits.launchers()) {
      log.warn(
          "{}: refused a launcher from {}: all {} launchers are connected",
          what,
          c.channel.socket().getRemoteSocketAddress(),
          limits.launchers());
      refuse(c, "all " + limits.launchers() + " launchers of this " + kind + " are connected");
      return;
    }
    c.authenticate(said.shownHost(), said.pid());
    unauthenticated--;
    authenticated++;
    pauseAcceptingWhenFull();
    welcome(c);
  }

  /** Answers REFUSE and closes the connection once it is sent. */
  protected final void refuse(C c, String reason) throws IOException {
    c.send(Frames.refuse(reason));
    c.hangUpWhenSent();
    flush(c);
  }

  /** Writes what the socket takes; a connection told to go is closed once all is sent. */
  protected final void flush(C c) throws IOException {
    if (c.flush()) {
      if (c.hangsUpWhenSent()) {
        drop(c, "told DONE or REFUSE");
      } else if (c.key.isValid()) {
        c.key.interestOps(SelectionKey.OP_READ);
      }
    } else {
      c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }
  }

  /** Closes a connection and tells the protocol. */
  protected final void drop(C c, String why) {
    if (!connections.remove(c)) {
      return;
    }
    open = connections.size();
    if (c.authenticated()) {
      authenticated--;
    } else {
      unauthenticated--;
      pauseAcceptingWhenFull();
    }
    c.key.cancel();
    c.released();
    try {
      c.channel.close();
    } catch (IOException e) {
      log.debug("{}: closing {}: {}", what, c.name(), e.toString());
    }
    dropped(c, why);
  }

  /**
   * The end of a turn: writes what is queued, closes connections that have not said an accepted
   * HELLO by their deadline (whether or not they are still sending) and accepted ones silent for
   * longer than their heartbeat allows.
   */
  protected final void flushAndExpire() {
    Instant now = Instant.now();
    for (C c : List.copyOf(connections)) {
      if (c.helloOverdue(now)) {
        drop(c, "no HELLO in time");
      } else if (c.authenticated() && silent(c)) {
        drop(
            c,
            "nothing heard for "
                + LauncherHeartbeat.silenceLimit(limits.heartbeat()).toMillis()
                + " ms ("
                + LauncherHeartbeat.MISSED_BEATS
                + " heartbeats missed): its host is lost or the launcher is stopped");
      } else if (c.hasOutput() && connections.contains(c)) {
        try {
          flush(c);
        } catch (IOException e) {
          drop(c, e.getMessage());
        }
      }
    }
  }

  /**
   * Whether an accepted launcher has been silent past the limit. What its socket holds is read
   * first: the silence must be the launcher's, not a turn of this loop that took long (a journal
   * sync on a loaded disk) while its heartbeats waited unread.
   */
  private boolean silent(C c) {
    if (!c.key.isValid() || !c.silentFor(System.nanoTime(), silenceLimitNanos)) {
      return false;
    }
    try {
      readFrom(c);
    } catch (IOException e) {
      drop(c, e.getMessage());
      return false;
    }
    return connections.contains(c) && c.silentFor(System.nanoTime(), silenceLimitNanos);
  }

  /** Closes every connection, the listening socket and the selector. */
  protected final void closeAll() {
    for (C c : List.copyOf(connections)) {
      c.released();
      try {
        c.channel.close();
      } catch (IOException e) {
        log.debug("{}: closing {}: {}", what, c.name(), e.toString());
      }
    }
    connections.clear();
    open = 0;
    try {
      server.close();
      selector.close();
    } catch (IOException e) {
      log.debug("{}: closing the dispatcher: {}", what, e.toString());
    }
  }
}
