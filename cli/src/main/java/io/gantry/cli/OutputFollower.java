package io.gantry.cli;

import io.gantry.cli.soap.OutputChunk;
import io.gantry.cli.soap.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a job's standard output or error from the start, piece by piece, and writes it as text. The
 * server hands out bytes, and a piece may end inside a multi-byte character; the decoder keeps the
 * incomplete tail until the next piece completes it.
 */
final class OutputFollower {
  /** The server's largest piece; fewer round trips for big outputs. */
  static final int CHUNK_BYTES = 1 << 20;

  private final ServerConnection server;
  private final String jobId;
  private final OutputStream stream;
  private final int chunkBytes;
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
  private ByteBuffer pending = ByteBuffer.allocate(0);
  private long offset;
  private boolean complete;
  private String note;

  OutputFollower(ServerConnection server, String jobId, OutputStream stream) {
    this(server, jobId, stream, CHUNK_BYTES);
  }

  /** With pieces of {@code chunkBytes} at most; tests use tiny ones to split characters. */
  OutputFollower(ServerConnection server, String jobId, OutputStream stream, int chunkBytes) {
    this.server = server;
    this.jobId = jobId;
    this.stream = stream;
    this.chunkBytes = chunkBytes;
  }

  /**
   * Writes everything the server has now to {@code out}.
   *
   * @return true once the job has ended and all its output has been written
   */
  boolean readAvailable(PrintWriter out) {
    while (!complete) {
      long from = offset;
      OutputChunk chunk = server.call(s -> s.getJobOutput(jobId, stream, from, chunkBytes));
      write(chunk.getData(), chunk.isComplete(), out);
      offset = chunk.getNextOffset();
      complete = chunk.isComplete();
      note = chunk.getNote();
      if (chunk.getNextOffset() == from) {
        break; // nothing new yet
      }
    }
    out.flush();
    return complete;
  }

  long offset() {
    return offset;
  }

  /**
   * Why the server gave no bytes where some were expected (the job's directory was removed after
   * the retention period, the file is one the server does not read); null otherwise.
   */
  String note() {
    return note;
  }

  private void write(byte[] data, boolean last, PrintWriter out) {
    ByteBuffer in = ByteBuffer.allocate(pending.remaining() + (data == null ? 0 : data.length));
    in.put(pending);
    if (data != null) {
      in.put(data);
    }
    in.flip();
    CharBuffer chars = CharBuffer.allocate(in.remaining() + 1);
    decoder.decode(in, chars, last);
    if (last) {
      decoder.flush(chars);
    }
    chars.flip();
    out.append(chars);
    pending = in.slice();
  }
}
