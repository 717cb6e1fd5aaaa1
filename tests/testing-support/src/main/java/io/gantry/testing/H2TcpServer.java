package io.gantry.testing;

import java.nio.file.Path;
import java.sql.SQLException;
import org.h2.tools.Server;

/**
 * An H2 database server on 127.0.0.1 and a free port: what a job's own (inline) data source may
 * name, since embedded H2 URLs would open the database inside the Gantry server. Databases are
 * created on first connection under {@code baseDirectory}. Close it to stop.
 */
public final class H2TcpServer implements AutoCloseable {
  private final Server server;

  private H2TcpServer(Server server) {
    this.server = server;
  }

  public static H2TcpServer start(Path baseDirectory) {
    try {
      return new H2TcpServer(
          Server.createTcpServer(
                  "-tcpPort",
                  "0",
                  "-ifNotExists",
                  "-baseDir",
                  baseDirectory.toAbsolutePath().toString())
              .start());
    } catch (SQLException e) {
      throw new IllegalStateException("H2 TCP server did not start", e);
    }
  }

  public int port() {
    return server.getPort();
  }

  /** {@code jdbc:h2:tcp://127.0.0.1:PORT/name}; the database is a file under the base directory. */
  public String jdbcUrl(String name) {
    return "jdbc:h2:tcp://127.0.0.1:" + port() + "/" + name;
  }

  /** The staging settings that let jobs name this server's databases inline. */
  public java.util.Map<String, String> inlineStagingSettings() {
    return java.util.Map.of(
        "staging.inline-data-sources",
        "true",
        "staging.allowed-jdbc-urls",
        "jdbc:h2:tcp://127.0.0.1:" + port() + "/**",
        "staging.allowed-hosts",
        "127.0.0.1");
  }

  @Override
  public void close() {
    server.stop();
  }
}
