package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchChangedHostKeyException;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.JSchHostKeyException;
import com.jcraft.jsch.JSchUnknownHostKeyException;
import com.jcraft.jsch.Session;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.Secret;
import io.gantry.staging.SshCredentials;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Opens authenticated SSH sessions with JSch (the maintained {@code com.github.mwiede} fork). Host
 * keys are checked against the configured known_hosts file: an unknown or changed key fails unless
 * the options say {@code acceptUnknownHostKeys}. Failures are sorted into retryable (network) and
 * permanent (host key, authentication), with messages naming host and user only; every network
 * failure reads the same, "could not connect to HOST:PORT".
 */
final class SshConnector {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SshConnector.class);
  private final GatewayOptions options;

  SshConnector(GatewayOptions options) {
    this.options = options;
  }

  Session open(RemoteTransfer t, SshCredentials credentials) throws TransferFailure {
    return open(new Endpoint(t.user(), t.host(), t.port()), credentials);
  }

  /** Who logs in where. */
  record Endpoint(String user, String host, int port) {}

  Session open(Endpoint t, SshCredentials credentials) throws TransferFailure {
    String where = t.user() + "@" + t.host() + ":" + t.port();
    try {
      JSch jsch = new JSch();
      if (!options.acceptUnknownHostKeys()) {
        if (!java.nio.file.Files.isReadable(options.knownHostsFile())) {
          throw TransferFailure.permanent(
              "known_hosts file "
                  + options.knownHostsFile()
                  + " does not exist or is"
                  + " unreadable, so the host key of "
                  + t.host()
                  + ":"
                  + t.port()
                  + " cannot be checked",
              null);
        }
        jsch.setKnownHosts(options.knownHostsFile().toString());
      }
      byte[] key = credentials.privateKeyOrNull();
      if (key != null) {
        Secret passphrase = credentials.passphraseOrNull();
        // with a user certificate as the public half, JSch offers the certificate
        jsch.addIdentity(
            "gantry:" + where,
            key,
            credentials.certificateOrNull(),
            passphrase == null ? null : bytes(passphrase));
        Arrays.fill(key, (byte) 0);
      }
      Session session = jsch.getSession(t.user(), t.host(), t.port());
      if (credentials.passwordOrNull() != null) {
        session.setPassword(bytes(credentials.passwordOrNull()));
      }
      session.setConfig("StrictHostKeyChecking", options.acceptUnknownHostKeys() ? "no" : "yes");
      session.setConfig("PreferredAuthentications", key != null ? "publickey" : "password");
      session.setConfig("cipher.c2s", gcmFirst(JSch.getConfig("cipher.c2s")));
      session.setConfig("cipher.s2c", gcmFirst(JSch.getConfig("cipher.s2c")));
      int timeout = (int) options.connectTimeout().toMillis();
      session.setTimeout(
          Math.max(timeout, 10_000)); // socket reads: a stalled transfer fails, then retries
      session.connect(timeout);
      return session;
    } catch (JSchUnknownHostKeyException e) {
      throw TransferFailure.permanent(
          "host key of "
              + t.host()
              + ":"
              + t.port()
              + " is not in the known_hosts file "
              + options.knownHostsFile()
              + " ("
              + e.getMessage()
              + "); add it there, or set acceptUnknownHostKeys"
              + " only on a network you trust",
          e);
    } catch (JSchChangedHostKeyException e) {
      throw TransferFailure.permanent(
          "host key of "
              + t.host()
              + ":"
              + t.port()
              + " DIFFERS from the one in "
              + options.knownHostsFile()
              + ": the host was reinstalled, or someone is intercepting the connection",
          e);
    } catch (JSchHostKeyException e) {
      throw TransferFailure.permanent(
          "host key of " + t.host() + ":" + t.port() + " rejected: " + e.getMessage(), e);
    } catch (JSchException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("Auth")) {
        throw authFailure(where, credentials, e);
      }
      // one text for refused, filtered, reset and "not SSH": the job must not learn which
      // ports of a host are open from staging's errors (the log keeps JSch's reason)
      LOG.info("connection to {}:{} failed: {}", t.host(), t.port(), e.getMessage());
      throw TransferFailure.retryable("could not connect to " + t.host() + ":" + t.port(), null);
    }
  }

  /**
   * JSch's own cipher list with AES-GCM first: an AEAD cipher needs no separate MAC pass, and the
   * JDK runs AES and GHASH with CPU instructions, so bulk transfers cost about half the CPU of
   * AES-CTR with HMAC-SHA2 (ClusterStreamingBenchmark). The list keeps every cipher JSch offers.
   */
  static String gcmFirst(String ciphers) {
    java.util.List<String> all = java.util.List.of(ciphers.split(","));
    java.util.List<String> ordered = new java.util.ArrayList<>();
    all.stream().filter(c -> c.contains("-gcm@")).forEach(ordered::add);
    all.stream().filter(c -> !c.contains("-gcm@")).forEach(ordered::add);
    return String.join(",", ordered);
  }

  private static TransferFailure authFailure(
      String where, SshCredentials credentials, Exception e) {
    return TransferFailure.permanent(
        "authentication failed for " + where + " with " + credentials.method(), e);
  }

  private static byte[] bytes(Secret secret) {
    char[] chars = secret.reveal();
    byte[] b = new String(chars).getBytes(StandardCharsets.UTF_8);
    Arrays.fill(chars, '\0');
    return b;
  }
}
