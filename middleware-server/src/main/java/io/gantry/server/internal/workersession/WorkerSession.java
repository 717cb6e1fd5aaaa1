package io.gantry.server.internal.workersession;

import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.workersession.SessionDispatcher;
import java.time.Instant;

/**
 * One open session: whose it is, what its workers run (for listings: an application's name, or the
 * executable), its dispatcher and its launchers.
 */
public final class WorkerSession {
  private final String id;
  private final String owner;
  private final String program;
  private final int workers;
  private final Instant openedAt;
  private final SessionDispatcher dispatcher;
  private final RunningJob launchers;
  private volatile Instant lastUsed;

  WorkerSession(
      String id,
      String owner,
      String program,
      int workers,
      Instant openedAt,
      SessionDispatcher dispatcher,
      RunningJob launchers) {
    this.id = id;
    this.owner = owner;
    this.program = program;
    this.workers = workers;
    this.openedAt = openedAt;
    this.dispatcher = dispatcher;
    this.launchers = launchers;
    this.lastUsed = openedAt;
  }

  public String id() {
    return id;
  }

  public String owner() {
    return owner;
  }

  public String program() {
    return program;
  }

  /** The workers asked for at open. */
  public int workers() {
    return workers;
  }

  public Instant openedAt() {
    return openedAt;
  }

  /** The last time its owner submitted to it or took from it. */
  public Instant lastUsed() {
    return lastUsed;
  }

  void touch(Instant now) {
    lastUsed = now;
  }

  public SessionDispatcher dispatcher() {
    return dispatcher;
  }

  RunningJob launchers() {
    return launchers;
  }
}
