package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.Session;
import io.gantry.staging.ConnectionPolicy;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.StagingException;
import io.gantry.staging.internal.bgzf.BlockGzipWriter;
import io.gantry.staging.internal.cache.CacheStore;
import io.gantry.staging.internal.cache.RemoteFileCache;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.steps.RetriedAttempts;
import io.gantry.staging.internal.steps.Step;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * Runs one {@link RemoteTransfer} over scp or sftp.
 *
 * <ul>
 *   <li>transmit (remote to job directory): the file arrives under a temporary name, compressed on
 *       the fly to blocked gzip if asked, and is renamed when complete;
 *   <li>receive (job directory to remote): compressed first if asked, then sent; over sftp it is
 *       renamed into place remotely (scp cannot rename, so it writes the target directly);
 *   <li>a dropped or refused connection is retried from the start with backoff; host key,
 *       authentication and missing-file errors are reported at once.
 * </ul>
 */
public final class RemoteTransferStep implements Step {
  private final RemoteTransfer transfer;
  private final JobFiles jobDirectory;
  private final CredentialResolver credentials;
  private final GatewayOptions options;
  private final ConnectionPolicy policy;
  private final ExecutorService compressionPool;
  private final CacheStore cache;

  /**
   * @param cache the stage-in cache; null for none (and always for stage-out)
   */
  public RemoteTransferStep(
      RemoteTransfer transfer,
      JobFiles jobDirectory,
      CredentialResolver credentials,
      GatewayOptions options,
      ConnectionPolicy policy,
      ExecutorService compressionPool,
      CacheStore cache) {
    this.cache = cache;
    this.transfer = transfer;
    this.jobDirectory = jobDirectory;
    this.credentials = credentials;
    this.options = options;
    this.policy = policy;
    this.compressionPool = compressionPool;
  }

  @Override
  public int group() {
    return transfer.arrangingOrder();
  }

  @Override
  public String label() {
    return transfer.label();
  }

  @Override
  public ManifestRecord run(StepContext context) throws StagingException, InterruptedException {
    // checked again at the moment of use: the rules may have changed since validation, or the
    // name may resolve elsewhere now; and before any password is decrypted
    var refused = policy.hostProblem(transfer.host(), transfer.port());
    if (refused.isPresent()) {
      throw new StagingException(label(), refused.get());
    }
    SshCredentials login = resolveLogin();
    return RetriedAttempts.run(label(), options, context, () -> attempt(login, context));
  }

  private SshCredentials resolveLogin() throws StagingException {
    try {
      SshCredentials login = credentials.ssh(transfer);
      if (login == null) {
        throw new StagingException(
            label(), "no credentials for " + transfer.user() + "@" + transfer.host());
      }
      return login;
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new StagingException(
          label(),
          "credentials for " + transfer.user() + "@" + transfer.host() + ": " + e.getMessage(),
          e);
    }
  }

  private ManifestRecord attempt(SshCredentials login, StepContext context)
      throws TransferFailure, IOException, InterruptedException {
    long start = System.nanoTime();
    Session session = new SshConnector(options).open(transfer, login);
    AutoCloseable cancel = session::disconnect;
    context.onCancel(cancel);
    try {
      if (transfer.direction() == RemoteTransfer.Direction.RECEIVE) {
        return send(session, start, context);
      }
      // the stage-in cache serves local job directories only: a hit is a hard link on this
      // server, which cannot reach a job directory on a cluster (that one streams host to host)
      JobDirectory local = jobDirectory.local();
      if (local != null
          && RemoteFileCache.applies(cache, transfer.cache(), CreationFlag.OVERWRITE)) {
        // the session has logged in with the job's own credentials: a host or account that
        // refuses the job refuses the cached copy too
        Optional<RemoteVersion> version = stat(session);
        if (version.isPresent()) {
          return RemoteFileCache.through(
              cache,
              transfer.cache(),
              new RemoteFileCache.Source(
                  protocolName()
                      + "://"
                      + transfer.host()
                      + ":"
                      + transfer.port()
                      + transfer.sourceFileName(),
                  transfer.user(),
                  transfer.compress() ? "bgzf" : "as sent",
                  source(),
                  transfer.sourceFileName(),
                  transfer.targetFileName()),
              version.get(),
              local.resolve(transfer.targetFileName(), "TargetFileName"),
              CreationFlag.OVERWRITE,
              ManifestRecord.TRANSMIT_CACHED,
              start,
              () -> fetch(session, start, context),
              () -> stat(session));
        }
      }
      return fetch(session, start, context);
    } finally {
      context.clearOnCancel(cancel);
      session.disconnect();
    }
  }

  private ManifestRecord fetch(Session session, long start, StepContext context)
      throws TransferFailure, IOException {
    int timeout = (int) options.connectTimeout().toMillis();
    // into the local job directory, or host to host: the source's bytes stream into an SFTP write
    // on the cluster, with nothing stored on this server
    try (OutputFile file = jobDirectory.create(transfer.targetFileName(), "TargetFileName")) {
      OutputStream out =
          transfer.compress()
              ? new BlockGzipWriter(
                  file.stream(),
                  compressionPool,
                  options.compressionThreads(),
                  options.blockSize(),
                  options.compressionLevel())
              : file.stream();
      if (transfer.protocol() == RemoteTransfer.Protocol.SCP) {
        ScpProtocol.download(session, transfer.sourceFileName(), out, timeout);
      } else {
        SftpProtocol.download(session, transfer.sourceFileName(), out, timeout);
      }
      out.close();
      String sha256 = file.commit(CreationFlag.OVERWRITE);
      context.progress().add(0, file.bytes());
      return record(
          "transmit",
          transfer.sourceFileName(),
          transfer.targetFileName(),
          file.bytes(),
          sha256,
          start);
    }
  }

  /** The remote file's size and modification time as scp ({@code -p}) or sftp (stat) report. */
  private Optional<RemoteVersion> stat(Session session) throws TransferFailure, IOException {
    int timeout = (int) options.connectTimeout().toMillis();
    return transfer.protocol() == RemoteTransfer.Protocol.SCP
        ? ScpProtocol.stat(session, transfer.sourceFileName(), timeout)
        : SftpProtocol.stat(session, transfer.sourceFileName(), timeout);
  }

  private String protocolName() {
    return transfer.protocol().name().toLowerCase(java.util.Locale.ROOT);
  }

  private String source() {
    return protocolName() + "://" + transfer.user() + "@" + transfer.host() + ":" + transfer.port();
  }

  private ManifestRecord send(Session session, long start, StepContext context)
      throws TransferFailure, IOException {
    SeekableByteChannel source;
    try {
      source = jobDirectory.openForReading(transfer.sourceFileName(), "local file");
    } catch (NoSuchFileException e) {
      throw TransferFailure.permanent(e.getFile(), null);
    } catch (IOException e) {
      throw TransferFailure.permanent(e.getMessage(), e);
    }
    Path compressed = null;
    try (source) {
      SeekableByteChannel upload = source;
      if (transfer.compress()) {
        compressed = compressCopy(source);
        upload = Files.newByteChannel(compressed);
      }
      try (SeekableByteChannel sent = upload) {
        String sha256 = Checksums.sha256(sent);
        long size = sent.size();
        int timeout = (int) options.connectTimeout().toMillis();
        String name = transfer.sourceFileName();
        long bytes =
            transfer.protocol() == RemoteTransfer.Protocol.SCP
                ? ScpProtocol.upload(
                    session,
                    Channels.newInputStream(sent),
                    size,
                    name,
                    transfer.targetFileName(),
                    timeout)
                : SftpProtocol.upload(
                    session,
                    Channels.newInputStream(sent),
                    size,
                    transfer.targetFileName(),
                    timeout);
        context.progress().add(0, bytes);
        return record(
            "receive", transfer.targetFileName(), transfer.sourceFileName(), bytes, sha256, start);
      }
    } finally {
      if (compressed != null) {
        Files.deleteIfExists(compressed);
      }
    }
  }

  /**
   * scp must announce the size before sending, so on-the-fly compression goes through a file; it
   * lies in the server's temporary directory, not the job's, whose names the job may have turned
   * into links.
   */
  private Path compressCopy(SeekableByteChannel source) throws IOException {
    Path temp = Files.createTempFile("gantry-upload-", ".bgz.part");
    try (InputStream in = Channels.newInputStream(source);
        OutputStream out =
            new BlockGzipWriter(
                Files.newOutputStream(temp),
                compressionPool,
                options.compressionThreads(),
                options.blockSize(),
                options.compressionLevel())) {
      in.transferTo(out);
    } catch (IOException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    return temp;
  }

  private ManifestRecord record(
      String kind, String remotePath, String file, long bytes, String sha256, long start) {
    return new ManifestRecord(
        kind,
        source(),
        remotePath,
        file,
        -1,
        bytes,
        sha256,
        (System.nanoTime() - start) / 1e9,
        false);
  }
}
