package io.gantry.staging.internal.uri;

import io.gantry.staging.Secret;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriStagingPolicy;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPReply;
import org.apache.commons.net.ftp.FTPSClient;

/**
 * {@code ftp:} and {@code ftps:} with Apache Commons Net: passive mode, binary type.
 *
 * <ol>
 *   <li>ftps is explicit TLS (AUTH TLS on port 21), with the data channel protected too ({@code
 *       PROT P}); the certificate is checked against the operator's trust store or the JDK's, and
 *       the host name is verified.
 *   <li>A password is sent only over ftps; without a login, ftp logs in as {@code anonymous}.
 *   <li>Stage-out stores under a temporary name in the target directory and renames.
 *   <li>Passive data connections go to the control connection's address whatever the PASV reply
 *       names, so a server cannot point them at another host.
 *   <li>4xx replies and connection failures may be retried; 5xx replies are final.
 * </ol>
 */
public final class FtpScheme implements UriScheme {
  private final UriStagingPolicy policy;
  private final Duration timeout;

  public FtpScheme(UriStagingPolicy policy, Duration timeout) {
    this.policy = policy;
    this.timeout = timeout;
  }

  @Override
  public long download(UriTransfer transfer, UriLogin login, OutputStream out, StepContext context)
      throws UriFailure, IOException {
    FTPClient ftp = connect(transfer, login, context);
    try {
      String path = transfer.uri().getPath();
      try (InputStream in = ftp.retrieveFileStream(path)) {
        if (in == null) {
          throw reply(transfer, ftp, "cannot read " + path);
        }
        long bytes = in.transferTo(out);
        in.close();
        if (!ftp.completePendingCommand()) {
          throw reply(transfer, ftp, "reading " + path + " did not complete");
        }
        return bytes;
      }
    } finally {
      close(ftp);
    }
  }

  /**
   * SIZE and MDTM (RFC 3659), in binary mode so SIZE counts the bytes RETR sends. A server without
   * either, or a file it does not know, gives no version: the download then runs (and reports the
   * server's answer) without the cache.
   */
  @Override
  public Optional<RemoteVersion> version(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure, IOException {
    FTPClient ftp = connect(transfer, login, context);
    try {
      String path = transfer.uri().getPath();
      String size = ftp.getSize(path);
      String modified = ftp.getModificationTime(path);
      if (size == null || modified == null || !size.strip().matches("[0-9]{1,19}")) {
        return Optional.empty();
      }
      return Optional.of(
          new RemoteVersion(Long.parseLong(size.strip()), "mdtm " + modified.strip()));
    } finally {
      close(ftp);
    }
  }

  @Override
  public long upload(
      UriTransfer transfer,
      UriLogin login,
      SeekableByteChannel file,
      long size,
      StepContext context)
      throws UriFailure, IOException {
    FTPClient ftp = connect(transfer, login, context);
    try {
      String target = transfer.uri().getPath();
      int slash = target.lastIndexOf('/');
      String temp =
          target.substring(0, slash + 1)
              + "."
              + target.substring(slash + 1)
              + "."
              + Long.toHexString(ThreadLocalRandom.current().nextLong())
              + ".part";
      try (InputStream in = Channels.newInputStream(file)) {
        if (!ftp.storeFile(temp, in)) {
          throw reply(transfer, ftp, "cannot write " + target);
        }
      }
      // RNTO over an existing file replaces it on common servers; delete first for those that
      // refuse
      if (!ftp.rename(temp, target) && !(ftp.deleteFile(target) && ftp.rename(temp, target))) {
        UriFailure failure = reply(transfer, ftp, "cannot rename the uploaded file to " + target);
        ftp.deleteFile(temp);
        throw failure;
      }
      return size;
    } finally {
      close(ftp);
    }
  }

  private FTPClient connect(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure {
    boolean secure = transfer.scheme().equals("ftps");
    if (login != null && !secure) {
      throw UriFailure.permanent(
          "a password is sent only over ftps, not to " + transfer.describe(), null);
    }
    FTPClient ftp = secure ? secureClient() : new FTPClient();
    ftp.setConnectTimeout((int) timeout.toMillis());
    ftp.setDefaultTimeout((int) Math.max(timeout.toMillis(), 10_000));
    ftp.setDataTimeout(Duration.ofMillis(Math.max(timeout.toMillis(), 10_000)));
    String where = transfer.uri().getHost() + ":" + transfer.port();
    AutoCloseable cancel = () -> close(ftp);
    context.onCancel(cancel);
    try {
      ftp.connect(transfer.uri().getHost(), transfer.port());
      if (!FTPReply.isPositiveCompletion(ftp.getReplyCode())) {
        throw reply(transfer, ftp, "the server refused the session");
      }
      if (ftp instanceof FTPSClient ftps) {
        ftps.execPBSZ(0);
        ftps.execPROT("P");
      }
      if (!login(ftp, login)) {
        throw UriFailure.permanent(
            "login to " + where + " as " + (login == null ? "anonymous" : login.user()) + " failed",
            null);
      }
      // A PASV reply names the data connection's address; a hostile server could name any
      // host and port behind the firewall. Data goes only to the host the control connection
      // reached (and so passed the host rule).
      String controlHost = ftp.getRemoteAddress().getHostAddress();
      ftp.setPassiveNatWorkaroundStrategy(announced -> controlHost);
      ftp.enterLocalPassiveMode();
      ftp.setFileType(FTP.BINARY_FILE_TYPE);
      return ftp;
    } catch (UriFailure f) {
      close(ftp);
      throw f;
    } catch (javax.net.ssl.SSLException e) {
      close(ftp);
      throw UriFailure.permanent(
          "TLS with "
              + where
              + " failed (certificate not trusted or wrong host name?): "
              + e.getMessage(),
          e);
    } catch (IOException e) {
      // one text for refused, filtered, reset and timed out: staging must not probe the network
      close(ftp);
      throw UriFailure.retryable("could not connect to " + where, e);
    } finally {
      context.clearOnCancel(cancel);
    }
  }

  private static boolean login(FTPClient ftp, UriLogin login) throws IOException {
    if (login == null) {
      return ftp.login("anonymous", "gantry@");
    }
    Secret password = login.credentials().passwordOrNull();
    if (password == null) {
      throw new IllegalArgumentException("ftp staging logs in with a password, not a private key");
    }
    char[] clear = password.reveal();
    try {
      return ftp.login(login.user(), new String(clear));
    } finally {
      java.util.Arrays.fill(clear, '\0');
    }
  }

  private FTPSClient secureClient() {
    FTPSClient ftps = new FTPSClient("TLS", false);
    ftps.setTrustManager(trustManager());
    ftps.setEndpointCheckingEnabled(true);
    return ftps;
  }

  private TrustManager trustManager() {
    try {
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(policy.trustStore()); // null: the JDK's trust store
      for (TrustManager tm : tmf.getTrustManagers()) {
        if (tm instanceof X509TrustManager) {
          return tm;
        }
      }
      throw new IllegalStateException("no X.509 trust manager");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the staging trust store cannot be used: " + e.getMessage(), e);
    }
  }

  private static UriFailure reply(UriTransfer transfer, FTPClient ftp, String what) {
    int code = ftp.getReplyCode();
    String message =
        transfer.describe()
            + ": "
            + what
            + " (FTP "
            + code
            + " "
            + ftp.getReplyString().strip()
            + ")";
    return FTPReply.isNegativeTransient(code)
        ? UriFailure.retryable(message, null)
        : UriFailure.permanent(message, null);
  }

  private static void close(FTPClient ftp) {
    try {
      if (ftp.isConnected()) {
        ftp.disconnect();
      }
    } catch (IOException e) {
      // closing is best effort: the transfer has already succeeded or failed
    }
  }
}
