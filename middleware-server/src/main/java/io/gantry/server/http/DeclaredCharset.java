package io.gantry.server.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;

/**
 * The charset of a SOAP request is the Content-Type's {@code charset} parameter, or else what
 * the XML declaration (or a byte-order mark) says, UTF-8 by default, as XML 1.0 appendix F
 * describes. Jetty answers {@code getCharacterEncoding()} with ISO-8859-1 for a {@code text/xml}
 * body without a charset, and CXF would decode with that, storing "Größe-€" as "GrÃ¶Ãe-â¬";
 * with no charset reported, CXF's XML reader detects the encoding from the document itself.
 */
final class DeclaredCharset extends HttpFilter {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    chain.doFilter(hasCharset(request.getContentType()) ? request : new NoCharset(request), response);
  }

  static boolean hasCharset(String contentType) {
    return contentType != null && contentType.toLowerCase(Locale.ROOT).matches(".*;\\s*charset\\s*=.*");
  }

  private static final class NoCharset extends HttpServletRequestWrapper {
    NoCharset(HttpServletRequest request) {
      super(request);
    }

    @Override
    public String getCharacterEncoding() {
      return null;
    }
  }
}
