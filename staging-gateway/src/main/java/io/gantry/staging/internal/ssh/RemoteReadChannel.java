package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpException;
import io.gantry.staging.internal.steps.BrokenStreamException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A file of the cluster read over SFTP as a seekable channel: reads stream from the current
 * position (a seek reopens the SFTP read at the new offset), so stage-out's two passes (checksum,
 * rows) and a web page's range both read only what they need. The size is the one seen at opening.
 */
final class RemoteReadChannel implements SeekableByteChannel {
  private final ChannelSftp sftp;
  private final String path;
  private final long size;
  private InputStream in;
  private long position;
  private long streamPosition = -1;
  private boolean open = true;

  RemoteReadChannel(ChannelSftp sftp, String path, long size) {
    this.sftp = sftp;
    this.path = path;
    this.size = size;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) {
      throw new java.nio.channels.ClosedChannelException();
    }
    if (position >= size) {
      return -1;
    }
    if (in == null || streamPosition != position) {
      reopen();
    }
    int want = (int) Math.min(dst.remaining(), size - position);
    byte[] buffer = new byte[Math.min(want, 256 * 1024)];
    int n;
    try {
      n = in.read(buffer);
    } catch (IOException e) {
      throw new BrokenStreamException(
          "reading " + path + " from the cluster broke at byte " + position + ": " + e, e);
    }
    if (n < 0) {
      throw new BrokenStreamException(
          "reading " + path + " from the cluster ended at byte " + position + " of " + size, null);
    }
    dst.put(buffer, 0, n);
    position += n;
    streamPosition = position;
    return n;
  }

  private void reopen() throws IOException {
    closeStream();
    try {
      in = sftp.get(path, null, position);
      streamPosition = position;
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot read " + path, e);
    }
  }

  private void closeStream() {
    if (in != null) {
      try {
        in.close();
      } catch (IOException e) {
        // a half-read stream of a dropped link: nothing more to release
      }
      in = null;
    }
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) {
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public SeekableByteChannel truncate(long newSize) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    if (open) {
      open = false;
      closeStream();
      sftp.disconnect();
    }
  }
}
