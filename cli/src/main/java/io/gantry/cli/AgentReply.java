package io.gantry.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * What the command agent sends back to gantry-client, as frames of one kind byte and a 4-byte
 * big-endian length: {@link #STDOUT} and {@link #STDERR} carry bytes for those streams, {@link
 * #EXIT} the exit code (4 bytes), {@link #RUN_LOCALLY} (empty) asks bin/gantry to run the command
 * in a JVM of its own. Frames are written whole, from any thread.
 */
final class AgentReply {
  static final byte STDOUT = 1;
  static final byte STDERR = 2;
  static final byte EXIT = 3;
  static final byte RUN_LOCALLY = 4;

  private final WritableByteChannel channel;
  private boolean wroteOutput;

  AgentReply(WritableByteChannel channel) {
    this.channel = channel;
  }

  /** Standard output or error ({@code kind}) as a stream of frames. */
  OutputStream stream(byte kind) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length > 0) {
          frame(kind, ByteBuffer.wrap(bytes, offset, length));
        }
      }
    };
  }

  /** Whether any output went to the client: after that, a command cannot be run again locally. */
  synchronized boolean wroteOutput() {
    return wroteOutput;
  }

  void exit(int code) throws IOException {
    frame(EXIT, ByteBuffer.allocate(4).putInt(0, code));
  }

  void runLocally() throws IOException {
    frame(RUN_LOCALLY, ByteBuffer.allocate(0));
  }

  private synchronized void frame(byte kind, ByteBuffer payload) throws IOException {
    if (kind == STDOUT || kind == STDERR) {
      wroteOutput = true;
    }
    ByteBuffer header = ByteBuffer.allocate(5).put(0, kind).putInt(1, payload.remaining());
    while (header.hasRemaining()) {
      channel.write(header);
    }
    while (payload.hasRemaining()) {
      channel.write(payload);
    }
  }
}
