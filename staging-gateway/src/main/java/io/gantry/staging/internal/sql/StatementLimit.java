package io.gantry.staging.internal.sql;

import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.StagingException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data source's limit on concurrent statements ({@code datasource.NAME.max-statements}): every
 * staging step holds one permit while it holds a connection of that data source, so at most that
 * many statements run on it at once, over all jobs and both of its accounts. A step beyond the
 * limit waits its turn (first come, first served; interruptible, so a cancelled job stops waiting)
 * instead of failing as an exhausted pool would after its connection timeout.
 */
final class StatementLimit {
  private static final Logger LOG = LoggerFactory.getLogger(StatementLimit.class);

  private final Semaphore permits;

  StatementLimit(int maxStatements) {
    this.permits = new Semaphore(maxStatements, true);
  }

  /** Opens a connection. */
  interface Opener {
    Connection open() throws StagingException, InterruptedException;
  }

  /** A connection from {@code opener} under a permit, which its close gives back (once). */
  Connection around(Opener opener, DataSourceSpec spec, String step)
      throws StagingException, InterruptedException {
    if (!permits.tryAcquire()) {
      LOG.info(
          "{}: waiting for one of the {} statements data source {} allows at once",
          step,
          spec.maxStatements(),
          spec.describe());
      permits.acquire();
    }
    Connection connection;
    try {
      connection = opener.open();
    } catch (StagingException | InterruptedException | RuntimeException e) {
      permits.release();
      throw e;
    }
    return releasingOnClose(connection);
  }

  private Connection releasingOnClose(Connection connection) {
    AtomicBoolean released = new AtomicBoolean();
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.getName().equals("close") && method.getParameterCount() == 0) {
            try {
              return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            } finally {
              if (released.compareAndSet(false, true)) {
                permits.release();
              }
            }
          }
          return invoke(connection, method, args);
        };
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
  }

  private static Object invoke(Connection connection, Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(connection, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Steps waiting for a permit now. */
  int waiting() {
    return permits.getQueueLength();
  }
}
