package io.gantry.web;

import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.service.JobManagementService;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;

/**
 * The end of a job's standard output or error, as the job page shows it: the last {@link #LIMIT}
 * bytes, decoded as UTF-8 (a character cut at the start is replaced).
 *
 * <p>The API reads forward from an offset and does not say how long the stream is, so the end
 * is found by asking for one byte at an offset:
 *
 * <ol>
 *   <li>no byte at {@code LIMIT}: the whole stream is the tail, read from 0;
 *   <li>else double the offset until a probe finds no byte (about log2(size / LIMIT) calls);
 *   <li>then halve the gap between the last offset with a byte and the first without, down to
 *       one byte: that is the size, and the tail is read from {@code size - LIMIT}.
 * </ol>
 */
public record OutputTail(String text, long size, boolean cut) {
  static final int LIMIT = 16 * 1024;

  static OutputTail of(JobManagementService jobs, String jobId, OutputStreamName stream) throws JobNotFoundFault {
    if (!hasByteAt(jobs, jobId, stream, LIMIT)) {
      OutputChunk all = jobs.getJobOutput(jobId, stream, 0, LIMIT);
      return new OutputTail(decode(all.data), all.data.length, false);
    }
    long with = LIMIT;
    long without = 2L * LIMIT;
    while (hasByteAt(jobs, jobId, stream, without)) {
      with = without;
      without *= 2;
    }
    while (without - with > 1) {
      long middle = with + (without - with) / 2;
      if (hasByteAt(jobs, jobId, stream, middle)) {
        with = middle;
      } else {
        without = middle;
      }
    }
    long size = without;
    OutputChunk tail = jobs.getJobOutput(jobId, stream, size - LIMIT, LIMIT);
    return new OutputTail(decode(tail.data), size, true);
  }

  private static boolean hasByteAt(JobManagementService jobs, String jobId, OutputStreamName stream, long offset)
      throws JobNotFoundFault {
    return jobs.getJobOutput(jobId, stream, offset, 1).data.length > 0;
  }

  private static String decode(byte[] data) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(data)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalStateException("cannot happen with REPLACE", e);
    }
  }
}
