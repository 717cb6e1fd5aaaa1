package io.gantry.server.internal.http;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import org.apache.cxf.message.Message;
import org.apache.cxf.transport.http.AbstractHTTPDestination;

/**
 * A SOAP request whose body is counted while CXF reads it, for bodies whose length was not known up
 * front (chunked): once more than the current limit has been read, every further read fails, so
 * nothing larger is ever parsed. The limit starts small for a caller not yet authenticated and is
 * raised once a WS-Security UsernameToken authenticated it ({@link #authenticated}).
 */
final class BoundedRequestBody extends HttpServletRequestWrapper {
  private static final String ATTRIBUTE = BoundedRequestBody.class.getName();
  private final long authenticatedLimit;
  private volatile long limit;
  private volatile String refusal;
  private volatile long read;
  private ServletInputStream counted;

  BoundedRequestBody(HttpServletRequest request, long limit, long authenticatedLimit) {
    super(request);
    this.limit = limit;
    this.authenticatedLimit = authenticatedLimit;
    request.setAttribute(ATTRIBUTE, this);
  }

  /** Raises the limit of the message's request, if it is bounded, to the authenticated one. */
  static void authenticated(Message message) {
    if (message.get(AbstractHTTPDestination.HTTP_REQUEST) instanceof HttpServletRequest request
        && request.getAttribute(ATTRIBUTE) instanceof BoundedRequestBody body) {
      body.limit = body.authenticatedLimit;
    }
  }

  /** Why the body was cut off, or null while it is within the limit. */
  String refusal() {
    return refusal;
  }

  long limit() {
    return limit;
  }

  @Override
  public synchronized ServletInputStream getInputStream() throws IOException {
    if (counted == null) {
      counted = new Counted(super.getInputStream());
    }
    return counted;
  }

  private final class Counted extends ServletInputStream {
    private final ServletInputStream in;

    Counted(ServletInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    // one request thread reads the body; volatile only lets the refusing thread see the count
    @SuppressWarnings("NonAtomicVolatileUpdate")
    public int read(byte[] b, int off, int len) throws IOException {
      if (refusal != null) {
        throw new IOException(refusal);
      }
      // never read further than one byte past the limit, so a refused body is not buffered
      long room = limit + 1 - read;
      int n = in.read(b, off, (int) Math.max(1, Math.min(len, room)));
      if (n > 0) {
        read += n;
        if (read > limit) {
          refusal = "the request body is larger than " + limit + " bytes";
          throw new IOException(refusal);
        }
      }
      return n;
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
