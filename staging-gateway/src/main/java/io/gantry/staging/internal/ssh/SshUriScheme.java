package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.Session;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.steps.StepContext;
import io.gantry.staging.internal.uri.UriFailure;
import io.gantry.staging.internal.uri.UriScheme;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.util.Optional;

/**
 * {@code scp:} and {@code sftp:} URIs through the same SSH code as {@code SCPDataStaging}: the same
 * host-key check against known_hosts, the same identities and encrypted passwords, the same remote
 * rename after an sftp upload.
 */
public final class SshUriScheme implements UriScheme {
  private final GatewayOptions options;

  public SshUriScheme(GatewayOptions options) {
    this.options = options;
  }

  @Override
  public long download(UriTransfer transfer, UriLogin login, OutputStream out, StepContext context)
      throws UriFailure, IOException {
    Session session = open(transfer, login, context);
    try {
      int timeout = (int) options.connectTimeout().toMillis();
      return transfer.scheme().equals("scp")
          ? ScpProtocol.download(session, transfer.uri().getPath(), out, timeout)
          : SftpProtocol.download(session, transfer.uri().getPath(), out, timeout);
    } catch (TransferFailure f) {
      throw translate(f);
    } finally {
      session.disconnect();
    }
  }

  /** The size and modification time that scp ({@code -p}) or sftp (stat) reports. */
  @Override
  public Optional<RemoteVersion> version(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure, IOException {
    Session session = open(transfer, login, context);
    try {
      int timeout = (int) options.connectTimeout().toMillis();
      return transfer.scheme().equals("scp")
          ? ScpProtocol.stat(session, transfer.uri().getPath(), timeout)
          : SftpProtocol.stat(session, transfer.uri().getPath(), timeout);
    } catch (TransferFailure f) {
      throw translate(f);
    } finally {
      session.disconnect();
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
    Session session = open(transfer, login, context);
    try {
      int timeout = (int) options.connectTimeout().toMillis();
      return transfer.scheme().equals("scp")
          ? ScpProtocol.upload(
              session,
              Channels.newInputStream(file),
              size,
              transfer.fileName(),
              transfer.uri().getPath(),
              timeout)
          : SftpProtocol.upload(
              session, Channels.newInputStream(file), size, transfer.uri().getPath(), timeout);
    } catch (TransferFailure f) {
      throw translate(f);
    } finally {
      session.disconnect();
    }
  }

  private Session open(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure {
    if (login == null) {
      throw UriFailure.permanent(
          transfer.describe()
              + " needs a login: a UsernameToken with an encrypted"
              + " password, or a reference to an SSH identity of the server",
          null);
    }
    RemoteTransfer.Protocol protocol =
        transfer.scheme().equals("scp")
            ? RemoteTransfer.Protocol.SCP
            : RemoteTransfer.Protocol.SFTP;
    RemoteTransfer as =
        new RemoteTransfer(
            transfer.order(),
            RemoteTransfer.Direction.TRANSMIT,
            protocol,
            transfer.uri().getHost(),
            transfer.port(),
            login.user(),
            transfer.uri().getPath(),
            transfer.fileName(),
            false);
    try {
      Session session = new SshConnector(options).open(as, login.credentials());
      context.onCancel(session::disconnect);
      return session;
    } catch (TransferFailure f) {
      throw translate(f);
    }
  }

  private static UriFailure translate(TransferFailure f) {
    return f.retryable()
        ? UriFailure.retryable(f.getMessage(), f)
        : UriFailure.permanent(f.getMessage(), f);
  }
}
