package io.gantry.server.internal.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The charset of a SOAP request is the Content-Type's {@code charset} parameter, or else what the
 * document itself says (a byte-order mark, or the XML declaration's {@code encoding}), UTF-8 by
 * default, as XML 1.0 appendix F describes. Jetty and CXF would decode a {@code text/xml} body
 * without a charset as ISO-8859-1 (the old HTTP default for {@code text/*}), storing "Größe-€" as
 * "GrÃ¶Ãe-â¬". So for a request without one, the first bytes are looked at and the charset found
 * there is added to the Content-Type that CXF reads.
 */
final class DeclaredCharset extends HttpFilter {
  private static final long serialVersionUID = 1L;

  /** The XML declaration is at the very start and short; this much is enough to read it. */
  private static final int PEEK = 256;

  private static final Pattern ENCODING =
      Pattern.compile("^<\\?xml[^>]*?\\sencoding\\s*=\\s*[\"']([A-Za-z][A-Za-z0-9._-]*)[\"']");

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String contentType = request.getContentType();
    if (contentType == null || hasCharset(contentType) || !"POST".equals(request.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    BufferedInputStream body = new BufferedInputStream(request.getInputStream(), PEEK);
    body.mark(PEEK);
    byte[] start = body.readNBytes(PEEK);
    body.reset();
    chain.doFilter(
        new WithCharset(request, contentType + "; charset=" + charsetOf(start), body), response);
  }

  static boolean hasCharset(String contentType) {
    return contentType.toLowerCase(Locale.ROOT).matches(".*;\\s*charset\\s*=.*");
  }

  /** The document's charset from its first bytes: BOM, then XML declaration, else UTF-8. */
  static String charsetOf(byte[] start) {
    if (start.length >= 2 && (start[0] & 0xff) == 0xfe && (start[1] & 0xff) == 0xff) {
      return "UTF-16BE";
    }
    if (start.length >= 2 && (start[0] & 0xff) == 0xff && (start[1] & 0xff) == 0xfe) {
      return "UTF-16LE";
    }
    // the declaration is ASCII in every ASCII-compatible charset, which is all a declaration can
    // name here
    Matcher m = ENCODING.matcher(new String(start, StandardCharsets.ISO_8859_1));
    return m.find() ? m.group(1) : "UTF-8";
  }

  private static final class WithCharset extends HttpServletRequestWrapper {
    private final String contentType;
    private final BufferedInputStream body;

    WithCharset(HttpServletRequest request, String contentType, BufferedInputStream body) {
      super(request);
      this.contentType = contentType;
      this.body = body;
    }

    @Override
    public String getContentType() {
      return contentType;
    }

    @Override
    public String getCharacterEncoding() {
      return contentType.substring(contentType.lastIndexOf('=') + 1);
    }

    @Override
    public String getHeader(String name) {
      return "Content-Type".equalsIgnoreCase(name) ? contentType : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
      return "Content-Type".equalsIgnoreCase(name)
          ? Collections.enumeration(java.util.List.of(contentType))
          : super.getHeaders(name);
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      ServletInputStream original = super.getInputStream();
      return new ServletInputStream() {
        @Override
        public int read() throws IOException {
          return body.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          return body.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          try {
            return original.isFinished() && body.available() == 0;
          } catch (IOException e) {
            return true;
          }
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          original.setReadListener(listener);
        }
      };
    }
  }
}
