package io.gantry.server.internal.http;

import io.gantry.server.internal.jobstore.JobStoreException;
import io.gantry.server.internal.storagewatch.StorageWatch;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * First in front of everything: while the server's storage is failing ({@link StorageWatch}), every
 * request is answered at once, a SOAP fault for the API and a 503 page for the web, saying what is
 * wrong and that the server recovers by itself; nothing reaches the job store. A job store failure
 * that a request runs into between two checks gets the same answer (instead of a 500 page) and a
 * check right away.
 */
public final class StorageOutageFilter implements Filter {
  private static final String SOAP_PATH = "/services/";

  private final StorageWatch watch;

  public StorageOutageFilter(StorageWatch watch) {
    this.watch = watch;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    Optional<String> problem = watch.problem();
    if (problem.isPresent()) {
      // the remembered problem comes from a check that may have run while the storage changed
      // under it (a directory moved between two of its stat calls, so it saw one gone and not
      // the other): a quick look says what is missing now, else the remembered problem holds
      refuse(request, response, watch.confirmStillThere().orElse(problem.get()));
      return;
    }
    try {
      chain.doFilter(req, res);
    } catch (IOException | ServletException | RuntimeException e) {
      if (!causedByJobStore(e) || response.isCommitted()) {
        throw e;
      }
      watch.checkSoon();
      refuse(
          request, response, watch.problem().orElse("the job store cannot be reached or written"));
    }
  }

  private static void refuse(
      HttpServletRequest request, HttpServletResponse response, String problem) throws IOException {
    String text =
        "the server's storage is failing ("
            + problem
            + "); it accepts no requests until the"
            + " storage is back, and recovers by itself then";
    response.reset();
    if (request.getRequestURI().startsWith(SOAP_PATH)) {
      // SOAP 1.1 carries faults with status 500; clients read the fault, not the status.
      response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
      response.setContentType("text/xml; charset=UTF-8");
      response.getOutputStream().write(soapFault(text).getBytes(StandardCharsets.UTF_8));
    } else {
      response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
      response.setHeader("Retry-After", "30");
      response.setContentType("text/html; charset=UTF-8");
      response.getOutputStream().write(page(text).getBytes(StandardCharsets.UTF_8));
    }
  }

  static String soapFault(String text) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><soap:Fault>"
        + "<faultcode>soap:Server</faultcode><faultstring>"
        + escape(text)
        + "</faultstring>"
        + "<detail><code>STORAGE_UNAVAILABLE</code></detail>"
        + "</soap:Fault></soap:Body></soap:Envelope>";
  }

  private static String page(String text) {
    return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Gantry: service unavailable"
        + "</title></head><body><h1>Service unavailable</h1><p>"
        + escape(text)
        + ".</p>"
        + "<p>Try again in a little while.</p></body></html>";
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static boolean causedByJobStore(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof JobStoreException) {
        return true;
      }
    }
    return false;
  }
}
