package io.gantry.staging;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What makes a stage-out step's committed transaction durable where the database's own commit does
 * not. It runs on the step's connection right after the commit (or after finding the step already
 * committed), before the step is reported done, and so before the server records the job's
 * stage-out as done: a crash after that must not lose the rows or their ledger row.
 *
 * <p>A database whose commit is on disk when it returns (PostgreSQL, whose write-ahead log is
 * flushed at commit) needs nothing more: {@link #NONE}, the gateway's default. An H2 file opened
 * inside the server's JVM does (its file header and an fsync); the server supplies that, since this
 * module does not depend on H2 (middleware-server's {@code H2FileSync}).
 */
@FunctionalInterface
public interface DurableCommit {
  /** Nothing beyond the database's commit. */
  DurableCommit NONE = connection -> {};

  /**
   * Makes what is committed on {@code connection}'s database durable, or leaves a connection that
   * needs nothing alone.
   *
   * @throws SQLException when it could not: the step fails, saying the rows are committed but may
   *     not survive a crash
   */
  void afterCommit(Connection connection) throws SQLException;
}
