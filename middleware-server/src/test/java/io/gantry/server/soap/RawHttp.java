package io.gantry.server.soap;

import io.gantry.soap.FingerprintTrustManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * Raw HTTP to a (TLS) test server, as curl sends it: the bytes, Content-Type and headers exactly as
 * given, no SOAP stack on this side. For what a SOAP stack would hide: charsets, status codes,
 * challenges, the fault body of a refused login.
 */
final class RawHttp {
  private final HttpClient http;

  RawHttp(String fingerprint) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new FingerprintTrustManager(fingerprint)}, null);
    http =
        HttpClient.newBuilder()
            .sslContext(tls)
            .proxy(HttpClient.Builder.NO_PROXY)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  /** The answer: status, headers and the body parsed as XML (it must be XML). */
  record Answer(int status, HttpResponse<byte[]> response, RawSoapClient.Answer soap) {
    String header(String name) {
      return response.headers().firstValue(name).orElse(null);
    }

    String faultCode() {
      String code = soap.text("faultcode");
      return code != null ? code : soap.text("Value");
    }

    String faultText() {
      String text = soap.text("faultstring");
      return text != null ? text : soap.text("Text");
    }
  }

  Answer post(String url, String contentType, byte[] body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType.startsWith("text/xml")) {
      request.header("SOAPAction", "\"\"");
    }
    headers.forEach(request::header);
    HttpResponse<byte[]> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(
        response.statusCode(),
        response,
        new RawSoapClient.Answer(response.statusCode(), RawSoapClient.parse(response.body())));
  }

  static Map<String, String> basic(String user, String password) {
    return Map.of(
        "Authorization",
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * A SOAP 1.1 envelope around {@code operation} with {@code body}; {@code header} may be empty.
   */
  static String soap11(String header, String operation, String body) {
    return "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/' xmlns:g='urn:gantry:jobmanagement:1'>"
        + "<s:Header>"
        + header
        + "</s:Header><s:Body><g:"
        + operation
        + ">"
        + body
        + "</g:"
        + operation
        + ">"
        + "</s:Body></s:Envelope>";
  }

  /** The same as SOAP 1.2 ({@code application/soap+xml}). */
  static String soap12(String operation, String body) {
    return "<s:Envelope xmlns:s='http://www.w3.org/2003/05/soap-envelope' xmlns:g='urn:gantry:jobmanagement:1'>"
        + "<s:Body><g:"
        + operation
        + ">"
        + body
        + "</g:"
        + operation
        + "></s:Body></s:Envelope>";
  }

  /** A UsernameToken header; a digest one is computed as the profile says, with nonce and time. */
  static String usernameToken(String user, String password, boolean digest) throws Exception {
    String wsse =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    String wsu =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    String profile =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#";
    String value = password;
    String extra = "";
    if (digest) {
      byte[] nonce = new byte[16];
      new java.security.SecureRandom().nextBytes(nonce);
      String created =
          java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
      java.security.MessageDigest sha1 = java.security.MessageDigest.getInstance("SHA-1");
      sha1.update(nonce);
      sha1.update(created.getBytes(StandardCharsets.UTF_8));
      sha1.update(password.getBytes(StandardCharsets.UTF_8));
      value = Base64.getEncoder().encodeToString(sha1.digest());
      extra =
          "<wsse:Nonce EncodingType='http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary'>"
              + Base64.getEncoder().encodeToString(nonce)
              + "</wsse:Nonce><wsu:Created>"
              + created
              + "</wsu:Created>";
    }
    return "<wsse:Security xmlns:wsse='"
        + wsse
        + "' xmlns:wsu='"
        + wsu
        + "' s:mustUnderstand='1'><wsse:UsernameToken>"
        + "<wsse:Username>"
        + user
        + "</wsse:Username><wsse:Password Type='"
        + profile
        + (digest ? "PasswordDigest" : "PasswordText")
        + "'>"
        + value
        + "</wsse:Password>"
        + extra
        + "</wsse:UsernameToken></wsse:Security>";
  }
}
