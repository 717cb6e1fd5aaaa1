package io.gantry.web;

import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The end of a job's standard output or error, as the job page shows it: the last {@link #LIMIT}
 * bytes, decoded as UTF-8 (a character cut at the start is replaced). One call learns the stream's
 * size ({@link OutputChunk#size}), a second reads its end. The server's note, when it has one (the
 * directory was removed after the retention period), is shown instead of nothing.
 */
public record OutputTail(String text, long size, boolean cut, String note) {
  static final int LIMIT = 16 * 1024;

  static OutputTail of(JobManagementService jobs, String jobId, OutputStreamName stream)
      throws JobNotFoundFault {
    OutputChunk head = jobs.getJobOutput(jobId, stream, 0, 1);
    long size = head.size == null ? 0 : head.size;
    long from = Math.max(0, size - LIMIT);
    OutputChunk tail = jobs.getJobOutput(jobId, stream, from, LIMIT);
    return new OutputTail(decode(tail.data), from + tail.data.length, from > 0, tail.note);
  }

  private static String decode(byte[] data) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(data))
          .toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalStateException("cannot happen with REPLACE", e);
    }
  }
}
