package io.gantry.server.internal.demo;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.SshIdentity;
import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Set;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.scp.server.ScpCommandFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * The demo's "remote host": an SSH server with scp and sftp on loopback, so the sample VaR job's
 * scp stage-in runs on a fresh machine with no SSH daemon. It serves {@code demo/remote-host} as
 * its whole file system (with the MPI host file the sample fetches), accepts one user, {@value
 * #USER}, by public key only, and is trusted the proper way: its host key is written to the
 * server's known_hosts file, and the client key is a configured SSH identity, {@value #IDENTITY}.
 */
public final class DemoRemoteHost implements AutoCloseable {
  public static final String USER = "gantry";
  public static final String IDENTITY = "demo-remote";
  public static final String HOST_FILE = "mpi-hosts.txt";

  private final SshServer server;
  private final SshIdentity identity;

  private DemoRemoteHost(SshServer server, SshIdentity identity) {
    this.server = server;
    this.identity = identity;
  }

  /**
   * Starts the host on 127.0.0.1:{@code port}, creating its keys and files on first use, and
   * records its host key in {@code knownHosts}.
   */
  public static DemoRemoteHost start(Path demoDir, int port, int slots, Path knownHosts)
      throws IOException, GeneralSecurityException {
    Path root = demoDir.resolve("remote-host");
    Files.createDirectories(root);
    Files.writeString(
        root.resolve(HOST_FILE),
        "# Open MPI host file served by the demo remote host\nlocalhost slots=" + slots + "\n");
    Path clientKey = demoDir.resolve("demo-remote-id");
    PublicKey authorized = clientKey(clientKey);

    SshServer server = SshServer.setUpDefaultServer();
    server.setHost(InetAddress.getLoopbackAddress().getHostAddress());
    server.setPort(port);
    SimpleGeneratorHostKeyProvider hostKeys =
        new SimpleGeneratorHostKeyProvider(demoDir.resolve("ssh-host-key"));
    hostKeys.setAlgorithm(KeyUtils.EC_ALGORITHM);
    server.setKeyPairProvider(hostKeys);
    server.setPublickeyAuthenticator(
        (user, key, session) -> USER.equals(user) && KeyUtils.compareKeys(authorized, key));
    server.setFileSystemFactory(new VirtualFileSystemFactory(root));
    server.setCommandFactory(new ScpCommandFactory.Builder().build());
    server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
    server.start();
    try {
      KeyPair hostKey = hostKeys.loadKeys(null).iterator().next();
      trust(
          knownHosts,
          "[127.0.0.1]:" + server.getPort() + " " + PublicKeyEntry.toString(hostKey.getPublic()));
    } catch (IOException | RuntimeException e) {
      server.stop(true);
      throw e;
    }
    return new DemoRemoteHost(
        server, new SshIdentity(IDENTITY, clientKey, new PasswordSource.None(), Set.of()));
  }

  /** The identity jobs name ({@code IdentityRef}) to log in to this host. */
  public SshIdentity identity() {
    return identity;
  }

  public int port() {
    return server.getPort();
  }

  /**
   * The client key pair, created once (ECDSA on NIST P-256, owner-only), as its public key. An
   * elliptic-curve key as the host key and the user CA's: made in milliseconds, where RSA 3072 took
   * the demo's first start seconds of prime search (tens of seconds on a busy machine), for the
   * same strength (NIST SP 800-57 Part 1, table 2: 128 bits of security for both). A data
   * directory's existing key, of either kind, is kept.
   */
  private static PublicKey clientKey(Path keyFile) throws IOException, GeneralSecurityException {
    Path publicFile = keyFile.resolveSibling(keyFile.getFileName() + ".pub");
    if (!Files.exists(keyFile) || !Files.exists(publicFile)) {
      try {
        com.jcraft.jsch.KeyPair pair =
            com.jcraft.jsch.KeyPair.genKeyPair(new JSch(), com.jcraft.jsch.KeyPair.ECDSA, 256);
        ByteArrayOutputStream privateKey = new ByteArrayOutputStream();
        pair.writePrivateKey(privateKey);
        ByteArrayOutputStream publicKey = new ByteArrayOutputStream();
        pair.writePublicKey(publicKey, "gantry-demo");
        OwnerOnlyFiles.write(publicFile, publicKey.toByteArray());
        OwnerOnlyFiles.write(keyFile, privateKey.toByteArray());
        pair.dispose();
      } catch (JSchException e) {
        throw new GeneralSecurityException(
            "cannot make the demo SSH identity: " + e.getMessage(), e);
      }
    }
    String line = Files.readString(publicFile, StandardCharsets.US_ASCII).trim();
    return AuthorizedKeyEntry.parseAuthorizedKeyEntry(line)
        .resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
  }

  /**
   * Adds the host's line to known_hosts unless it is there; replaces a stale line for the address.
   */
  private static void trust(Path knownHosts, String line) throws IOException {
    OwnerOnlyFiles.createDirectories(knownHosts.getParent(), OwnerOnlyFiles.DIRECTORY_MODE);
    List<String> lines = Files.exists(knownHosts) ? Files.readAllLines(knownHosts) : List.of();
    if (lines.contains(line)) {
      return;
    }
    String address = line.substring(0, line.indexOf(' ') + 1);
    List<String> kept = lines.stream().filter(l -> !l.startsWith(address)).toList();
    // owner-only from its first byte: it lies in ssh/, whose files the start-up check refuses
    // when others may read them
    OwnerOnlyFiles.write(
        knownHosts,
        String.join("\n", concat(kept, line)).concat("\n").getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> concat(List<String> lines, String line) {
    List<String> all = new java.util.ArrayList<>(lines);
    all.add(line);
    return all;
  }

  @Override
  public void close() throws IOException {
    server.stop(true);
  }
}
