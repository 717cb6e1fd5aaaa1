package io.gantry.server.internal.http;

import io.gantry.server.web.RefusedRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A SOAP fault written by the servlet filters in front of CXF (a wrong Basic login, too many failed
 * logins), so that every answer on {@code /services/*} is SOAP a client can parse: never an HTML
 * error page, which SOAP stacks report as "invalid XML". The version follows the request's
 * Content-Type: {@code application/soap+xml} is SOAP 1.2, anything else SOAP 1.1.
 */
final class SoapFaultAnswer {
  private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";

  private SoapFaultAnswer() {}

  /**
   * Answers {@code status} with a {@code Client}/{@code Sender} fault saying {@code reason}, after
   * draining.
   */
  static void send(
      HttpServletRequest request, HttpServletResponse response, int status, String reason)
      throws IOException {
    boolean soap12 = isSoap12(request.getContentType());
    byte[] body = (soap12 ? soap12(reason) : soap11(reason)).getBytes(StandardCharsets.UTF_8);
    RefusedRequest.answer(
        request,
        response,
        () -> {
          response.setStatus(status);
          response.setContentType(
              (soap12 ? "application/soap+xml" : "text/xml") + "; charset=UTF-8");
          response.setContentLength(body.length);
          response.getOutputStream().write(body);
        });
  }

  static boolean isSoap12(String contentType) {
    return contentType != null
        && contentType
            .strip()
            .toLowerCase(java.util.Locale.ROOT)
            .startsWith("application/soap+xml");
  }

  private static String soap11(String reason) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soap:Envelope xmlns:soap=\""
        + SOAP11
        + "\"><soap:Body>"
        + "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>"
        + escaped(reason)
        + "</faultstring>"
        + "</soap:Fault></soap:Body></soap:Envelope>";
  }

  private static String soap12(String reason) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soap:Envelope xmlns:soap=\""
        + SOAP12
        + "\"><soap:Body>"
        + "<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason>"
        + "<soap:Text xml:lang=\"en\">"
        + escaped(reason)
        + "</soap:Text></soap:Reason></soap:Fault>"
        + "</soap:Body></soap:Envelope>";
  }

  private static String escaped(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
