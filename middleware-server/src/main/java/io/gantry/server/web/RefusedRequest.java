package io.gantry.server.web;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * Answers a request that is refused before its body was read (too large, not authenticated) so that
 * every client reads the answer, whatever it is still sending.
 *
 * <p>The trouble it solves: a server that answers early and closes the connection while the client
 * is still sending leaves unread bytes in its socket, and closing such a socket sends a TCP RST
 * instead of a FIN. The client's kernel then throws away the answer it had already received, and
 * the client (Java's HttpClient, a browser) reports "no bytes" or a reset instead of the 413 page.
 * Jetty 12 itself reads only a few buffers of unconsumed content before it closes ({@code
 * HttpConfiguration.maxUnconsumedRequestContentReads}), so it depends on timing how much of a body
 * it swallows.
 *
 * <ol>
 *   <li>A body of at most {@code drainBytes} (known from Content-Length, or chunked) is read and
 *       discarded first, then the answer is sent; when the whole body was read, the connection
 *       stays open for the next request.
 *   <li>A larger body is not read: the answer goes out at once with {@code Connection: close}.
 *       Then, as Apache httpd's "lingering close" does, up to {@code drainBytes} more are read and
 *       discarded, for at most {@code drainTime}, so that the client has time to read the answer
 *       before the connection is closed under it.
 *   <li>The answer is written directly, never through the error pages: an error page would create a
 *       web session for a request that has nothing to do with the web face.
 * </ol>
 *
 * Memory stays bounded: the body passes through one small buffer.
 */
public final class RefusedRequest {
  /**
   * Servlet context attribute under which the server publishes its drain settings ({@link Drain}).
   */
  public static final String DRAIN_ATTRIBUTE = RefusedRequest.class.getName() + ".drain";

  private static final int BUFFER = 16 * 1024;

  /**
   * How much of a refused body is read and for how long ({@code http.drain-bytes}, {@code
   * http.drain-time}).
   */
  public record Drain(long bytes, Duration time) {
    public static final Drain DEFAULT = new Drain(16L * 1024 * 1024, Duration.ofSeconds(5));
  }

  private RefusedRequest() {}

  /** The drain settings the server published in the request's servlet context, or the defaults. */
  public static Drain drainOf(HttpServletRequest request) {
    return request.getServletContext().getAttribute(DRAIN_ATTRIBUTE) instanceof Drain d
        ? d
        : Drain.DEFAULT;
  }

  /** Sends {@code status} with a one-line plain-text {@code message}, after draining as above. */
  public static void answer(
      HttpServletRequest request, HttpServletResponse response, int status, String message)
      throws IOException {
    answer(
        request,
        response,
        () -> {
          response.setStatus(status);
          response.setContentType("text/plain; charset=UTF-8");
          response.getWriter().println(message);
        });
  }

  /** What writes the answer (status, headers, body) on the response. */
  public interface Answer {
    void write() throws IOException;
  }

  /**
   * Drains as above around {@code answer}, which writes the response itself (an HTML page, a SOAP
   * fault).
   */
  public static void answer(HttpServletRequest request, HttpServletResponse response, Answer answer)
      throws IOException {
    Drain drain = drainOf(request);
    long length = request.getContentLengthLong();
    long deadline = System.nanoTime() + drain.time().toNanos();
    boolean whole = length <= drain.bytes() && discard(request, drain.bytes(), deadline) >= 0;
    if (!whole) {
      response.setHeader("Connection", "close");
    }
    answer.write();
    if (!whole) {
      response.flushBuffer();
      discard(request, drain.bytes(), deadline);
    }
  }

  /**
   * After an answer was written by someone else (a SOAP fault given before the body was read):
   * reads and throws away what is left of the body, as far as the drain settings allow, so that the
   * connection is not closed with unread bytes under the answer.
   */
  public static void drainRest(HttpServletRequest request) {
    Drain drain = drainOf(request);
    discard(request, drain.bytes(), System.nanoTime() + drain.time().toNanos());
  }

  /**
   * Reads and throws away up to {@code most} bytes of the body until {@code deadline}; the count
   * when the body ended, or -1 when it did not (or could not be read).
   */
  static long discard(HttpServletRequest request, long most, long deadline) {
    byte[] buffer = new byte[BUFFER];
    long total = 0;
    try {
      InputStream in = request.getInputStream();
      if (in instanceof ServletInputStream s && s.isFinished()) {
        return total;
      }
      while (total <= most && System.nanoTime() < deadline) {
        int n = in.read(buffer);
        if (n < 0) {
          return total;
        }
        total += n;
      }
    } catch (IOException | IllegalStateException e) {
      // a broken-off body, or one already read as a reader: nothing more to drain
    }
    return -1;
  }
}
