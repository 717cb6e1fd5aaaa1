package io.gantry.server.internal.http;

import io.gantry.server.web.RefusedRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Bounds a SOAP request's body at the HTTP layer, before CXF parses any of it, after HTTP Basic was
 * checked ({@link BasicAuthenticationFilter} runs first).
 *
 * <ol>
 *   <li>An authenticated caller (HTTP Basic, or any caller when authentication is off) may send
 *       {@code limits.job-definition-bytes} plus {@code http.soap-envelope-margin-bytes}.
 *   <li>A caller not yet authenticated (no Basic credentials: it may carry a WS-Security
 *       UsernameToken) may send {@code http.unauthenticated-body-bytes}. WSS4J reads the whole
 *       envelope before it authenticates, so for such a request this bounds the whole body.
 *   <li>A Content-Length over the bound is refused with 413 before a byte is read. A chunked body
 *       is counted while CXF reads it ({@link BoundedRequestBody}); at the bound reading stops,
 *       whatever CXF then writes is dropped, and the caller gets the same 413.
 *   <li>Every refusal drains a bounded amount of the body first ({@link RefusedRequest}), so the
 *       client reads the answer.
 * </ol>
 */
final class SoapBodyLimit extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private final long authenticatedBytes;
  private final long unauthenticatedBytes;
  private final boolean authenticationRequired;

  SoapBodyLimit(
      long authenticatedBytes, long unauthenticatedBytes, boolean authenticationRequired) {
    this.authenticatedBytes = authenticatedBytes;
    this.unauthenticatedBytes = Math.min(unauthenticatedBytes, authenticatedBytes);
    this.authenticationRequired = authenticationRequired;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    boolean known = !authenticationRequired || request.getUserPrincipal() != null;
    long limit = known ? authenticatedBytes : unauthenticatedBytes;
    if (request.getContentLengthLong() > limit) {
      RefusedRequest.answer(request, response, 413, tooLarge(known, limit));
      return;
    }
    BoundedRequestBody body = new BoundedRequestBody(request, limit, authenticatedBytes);
    chain.doFilter(body, new Silenced(response, body));
    if (body.refusal() != null) {
      response.reset();
      RefusedRequest.answer(
          request, response, 413, tooLarge(body.limit() == authenticatedBytes, body.limit()));
      return;
    }
    // a fault given before the body was read (authentication required, the permit refused):
    // read a bounded rest of it, so that the connection is not reset under the fault
    RefusedRequest.drainRest(request);
  }

  private static String tooLarge(boolean authenticated, long limit) {
    if (authenticated) {
      return "the request is larger than "
          + limit
          + " bytes, the most this server reads for one SOAP call"
          + " (limits.job-definition-bytes plus http.soap-envelope-margin-bytes)";
    }
    return "the request is larger than "
        + limit
        + " bytes, the most this server reads before the caller is"
        + " authenticated (http.unauthenticated-body-bytes); a WS-Security UsernameToken is checked only after"
        + " the whole envelope is read, so send larger requests with HTTP Basic authentication";
  }

  /** The response as CXF sees it: once the body was cut off, whatever CXF writes goes nowhere. */
  private static final class Silenced extends HttpServletResponseWrapper {
    private final BoundedRequestBody body;

    Silenced(HttpServletResponse response, BoundedRequestBody body) {
      super(response);
      this.body = body;
    }

    private boolean silent() {
      return body.refusal() != null;
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
      ServletOutputStream real = super.getOutputStream();
      return new ServletOutputStream() {
        @Override
        public void write(int b) throws IOException {
          if (!silent()) {
            real.write(b);
          }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          if (!silent()) {
            real.write(b, off, len);
          }
        }

        @Override
        public void flush() throws IOException {
          if (!silent()) {
            real.flush();
          }
        }

        @Override
        public void close() throws IOException {
          if (!silent()) {
            real.close();
          }
        }

        @Override
        public boolean isReady() {
          return real.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
          real.setWriteListener(listener);
        }
      };
    }

    @Override
    public PrintWriter getWriter() throws IOException {
      return new PrintWriter(
          new java.io.OutputStreamWriter(getOutputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public void setStatus(int sc) {
      if (!silent()) {
        super.setStatus(sc);
      }
    }

    @Override
    public void sendError(int sc, String msg) throws IOException {
      if (!silent()) {
        super.sendError(sc, msg);
      }
    }

    @Override
    public void sendError(int sc) throws IOException {
      if (!silent()) {
        super.sendError(sc);
      }
    }

    @Override
    public void setHeader(String name, String value) {
      if (!silent()) {
        super.setHeader(name, value);
      }
    }

    @Override
    public void addHeader(String name, String value) {
      if (!silent()) {
        super.addHeader(name, value);
      }
    }

    @Override
    public void setContentType(String type) {
      if (!silent()) {
        super.setContentType(type);
      }
    }

    @Override
    public void flushBuffer() throws IOException {
      if (!silent()) {
        super.flushBuffer();
      }
    }
  }
}
