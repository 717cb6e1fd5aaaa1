package io.gantry.testing;

import java.nio.file.Path;
import java.util.List;
import org.apache.ftpserver.ConnectionConfigFactory;
import org.apache.ftpserver.DataConnectionConfigurationFactory;
import org.apache.ftpserver.FtpServer;
import org.apache.ftpserver.FtpServerFactory;
import org.apache.ftpserver.ftplet.Authority;
import org.apache.ftpserver.ftplet.FtpException;
import org.apache.ftpserver.listener.ListenerFactory;
import org.apache.ftpserver.ssl.SslConfigurationFactory;
import org.apache.ftpserver.usermanager.PropertiesUserManagerFactory;
import org.apache.ftpserver.usermanager.impl.BaseUser;
import org.apache.ftpserver.usermanager.impl.WritePermission;

/**
 * Apache MINA FtpServer on 127.0.0.1 (an ephemeral port, passive data connections), serving one
 * directory to the users a test adds and to {@code anonymous}; with a {@link TestKeystore} it
 * speaks explicit FTPS (AUTH TLS) and requires TLS on the data channel too.
 */
public final class FtpTestServer implements AutoCloseable {
  private final FtpServer server;
  private final FtpServerFactory factory;
  private final Path root;
  private final int port;

  private FtpTestServer(Path root, TestKeystore tls) throws FtpException {
    this.root = root;
    factory = new FtpServerFactory();
    ListenerFactory listener = new ListenerFactory();
    listener.setServerAddress("127.0.0.1");
    listener.setPort(0);
    DataConnectionConfigurationFactory data = new DataConnectionConfigurationFactory();
    data.setPassiveAddress("127.0.0.1");
    data.setPassiveExternalAddress("127.0.0.1");
    if (tls != null) {
      SslConfigurationFactory ssl = new SslConfigurationFactory();
      ssl.setKeystoreFile(tls.file().toFile());
      ssl.setKeystorePassword(new String(tls.password()));
      ssl.setKeystoreType("PKCS12");
      listener.setSslConfiguration(ssl.createSslConfiguration());
      listener.setImplicitSsl(false);
      data.setSslConfiguration(ssl.createSslConfiguration());
    }
    listener.setDataConnectionConfiguration(data.createDataConnectionConfiguration());
    factory.addListener("default", listener.createListener());
    ConnectionConfigFactory connections = new ConnectionConfigFactory();
    connections.setAnonymousLoginEnabled(true);
    factory.setConnectionConfig(connections.createConnectionConfig());
    factory.setUserManager(new PropertiesUserManagerFactory().createUserManager());
    server = factory.createServer();
    addUser("anonymous", null);
    server.start();
    port = factory.getListener("default").getPort();
  }

  /** Plain FTP for {@code root}. */
  public static FtpTestServer ftp(Path root) {
    return ServedDirectory.serve(root, "test FTP server", dir -> new FtpTestServer(dir, null));
  }

  /** Explicit FTPS for {@code root}, presenting {@code tls}'s certificate. */
  public static FtpTestServer ftps(Path root, TestKeystore tls) {
    return ServedDirectory.serve(root, "test FTPS server", dir -> new FtpTestServer(dir, tls));
  }

  /** A user with write access to the whole directory. */
  public void addUser(String name, String password) {
    BaseUser user = new BaseUser();
    user.setName(name);
    user.setPassword(password);
    user.setHomeDirectory(root.toString());
    user.setAuthorities(List.<Authority>of(new WritePermission()));
    try {
      factory.getUserManager().save(user);
    } catch (FtpException e) {
      throw new IllegalStateException(e);
    }
  }

  public int port() {
    return port;
  }

  @Override
  public void close() {
    server.stop();
  }
}
