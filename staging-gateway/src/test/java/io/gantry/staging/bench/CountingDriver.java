package io.gantry.staging.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * A JDBC driver for {@code jdbc:counting:<real URL>} that counts what the staging gateway sends:
 * statements (a prepared statement that repeats a bound statement n times, as batched binding does,
 * counts n) and round trips (one per execute). Benchmarks only; the COPY path bypasses it, so the
 * benchmark turns that path off where it counts.
 */
final class CountingDriver implements Driver {
  static final String PREFIX = "jdbc:counting:";
  static final AtomicLong STATEMENTS = new AtomicLong();
  static final AtomicLong ROUND_TRIPS = new AtomicLong();

  static void register() throws SQLException {
    DriverManager.registerDriver(new CountingDriver());
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    Connection real = DriverManager.getConnection("jdbc:" + url.substring(PREFIX.length()), info);
    return (Connection)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              Object result = call(real, method, args);
              if (result instanceof Statement s && method.getName().startsWith("prepare")) {
                return counting(s, statementsIn((String) args[0]));
              }
              if (result instanceof Statement s) {
                return counting(s, 1);
              }
              return result;
            });
  }

  private static Object counting(Statement real, long statements) {
    Class<?>[] types =
        real instanceof java.sql.PreparedStatement
            ? new Class<?>[] {java.sql.PreparedStatement.class}
            : new Class<?>[] {Statement.class};
    InvocationHandler h =
        (proxy, method, args) -> {
          if (method.getName().startsWith("execute")) {
            STATEMENTS.addAndGet(statements);
            ROUND_TRIPS.incrementAndGet();
          }
          return call(real, method, args);
        };
    return Proxy.newProxyInstance(CountingDriver.class.getClassLoader(), types, h);
  }

  private static long statementsIn(String sql) {
    return sql.chars().filter(c -> c == ';').count() + 1;
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 1;
  }

  @Override
  public int getMinorVersion() {
    return 0;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }
}
