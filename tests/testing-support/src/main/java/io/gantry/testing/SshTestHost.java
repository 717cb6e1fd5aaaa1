package io.gantry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.scp.server.ScpCommandFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An SSH server with scp and sftp on 127.0.0.1 (Apache MINA SSHD), serving a directory as its whole
 * file system: remote path {@code /a/b.csv} is {@code root/a/b.csv}.
 *
 * <p>Clients reach it through a relay ({@link #port()}) that can drop connections mid-transfer
 * ({@link #dropNextConnections}). Users log in with a password ({@link #addUser}) or an authorised
 * public key ({@link #authorizeKey}). The host key is a fresh ECDSA P-256 key per instance; {@link
 * #knownHostsLine()} gives the line a client's known_hosts file needs.
 */
public final class SshTestHost implements AutoCloseable {
  private final SshServer server;
  private final ConnectionDroppingProxy proxy;
  private final KeyPair hostKey;
  private final Path root;
  private final Map<String, String> passwords = new ConcurrentHashMap<>();
  private final List<PublicKey> authorizedKeys = new CopyOnWriteArrayList<>();

  private SshTestHost(Path root) throws IOException, GeneralSecurityException {
    this.root = root;
    this.hostKey = newEcKeyPair();
    server = SshServer.setUpDefaultServer();
    server.setHost(InetAddress.getLoopbackAddress().getHostAddress());
    server.setPort(0);
    server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    server.setPasswordAuthenticator(
        (user, password, session) -> password.equals(passwords.get(user)));
    server.setPublickeyAuthenticator(
        (user, key, session) ->
            authorizedKeys.stream().anyMatch(k -> KeyUtils.compareKeys(k, key)));
    server.setFileSystemFactory(new VirtualFileSystemFactory(root));
    server.setCommandFactory(new ScpCommandFactory.Builder().build());
    server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
    server.start();
    proxy = new ConnectionDroppingProxy(server.getPort());
  }

  /** Starts a host serving {@code root} (created if missing). */
  public static SshTestHost start(Path root) {
    try {
      Files.createDirectories(root);
      return new SshTestHost(root);
    } catch (IOException e) {
      throw new UncheckedIOException("embedded SSH server did not start", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make an SSH host key", e);
    }
  }

  public String host() {
    return "127.0.0.1";
  }

  /** The port clients connect to (the relay in front of the server). */
  public int port() {
    return proxy.port();
  }

  /** The directory that is the remote file system's root. */
  public Path root() {
    return root;
  }

  public void addUser(String user, String password) {
    passwords.put(user, password);
  }

  /** Authorises a public key given as an OpenSSH line ({@code ssh-rsa AAAA... comment}). */
  public void authorizeKey(String openSshPublicKeyLine) {
    try {
      authorizedKeys.add(
          AuthorizedKeyEntry.parseAuthorizedKeyEntry(openSshPublicKeyLine.trim())
              .resolvePublicKey(null, PublicKeyEntryResolver.FAILING));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("not an OpenSSH public key line", e);
    }
  }

  /**
   * The known_hosts line for this host as clients see it: {@code [127.0.0.1]:port key-type base64}.
   */
  public String knownHostsLine() {
    return "[" + host() + "]:" + port() + " " + PublicKeyEntry.toString(hostKey.getPublic());
  }

  /**
   * A known_hosts line for this address but a different key: what a changed or spoofed host looks
   * like.
   */
  public String knownHostsLineWithOtherKey() {
    try {
      return "["
          + host()
          + "]:"
          + port()
          + " "
          + PublicKeyEntry.toString(newEcKeyPair().getPublic());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The next {@code connections} connections are cut after {@code afterBytes} bytes relayed. */
  public void dropNextConnections(int connections, long afterBytes) {
    proxy.dropNextConnections(connections, afterBytes);
  }

  public int droppedConnections() {
    return proxy.droppedConnections();
  }

  private static KeyPair newEcKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  @Override
  public void close() {
    try {
      proxy.close();
      server.stop(true);
    } catch (IOException e) {
      throw new UncheckedIOException("embedded SSH server did not stop cleanly", e);
    }
  }
}
