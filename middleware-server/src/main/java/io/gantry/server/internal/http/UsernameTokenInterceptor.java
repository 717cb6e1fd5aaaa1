package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAuthenticator;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.Map;
import javax.xml.namespace.QName;
import org.apache.cxf.binding.soap.SoapMessage;
import org.apache.cxf.headers.Header;
import org.apache.cxf.interceptor.Fault;
import org.apache.cxf.transport.http.AbstractHTTPDestination;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.handler.WSHandlerConstants;

/**
 * WSS4J's in-interceptor, set up for UsernameToken logins checked by {@link
 * UsernameTokenValidator}. It steps aside for requests that carry no {@code wsse:Security} header
 * (HTTP Basic, or no credentials at all): those are decided by the servlet filter and by {@link
 * AuthenticationRequiredInterceptor}, so each refusal has a clear message. A refused token is
 * answered with HTTP 401 and the reason {@link UsernameTokenValidator} recorded.
 */
final class UsernameTokenInterceptor extends WSS4JInInterceptor {
  private static final QName SECURITY = new QName(WSConstants.WSSE_NS, WSConstants.WSSE_LN);

  UsernameTokenInterceptor(UserAuthenticator authenticator) {
    super(settings(authenticator));
  }

  private static Map<String, Object> settings(UserAuthenticator authenticator) {
    Map<String, Object> settings = new HashMap<>();
    settings.put(WSHandlerConstants.ACTION, WSHandlerConstants.USERNAME_TOKEN);
    settings.put(
        WSS4JInInterceptor.VALIDATOR_MAP,
        Map.of(WSConstants.USERNAME_TOKEN, new UsernameTokenValidator(authenticator)));
    return settings;
  }

  @Override
  public void handleMessage(SoapMessage message) throws Fault {
    if (!hasSecurityHeader(message) || authenticatedByHttp(message)) {
      return;
    }
    try {
      super.handleMessage(message);
    } catch (Fault e) {
      // WSS4J's own text is "A security error was encountered when verifying the message",
      // whatever went wrong; say what the client can act on, and nothing about the accounts
      Object reason = message.get(UsernameTokenValidator.REASON);
      throw AuthenticationRequiredInterceptor.unauthorized(
          message,
          reason instanceof String r
              ? r
              : "the WS-Security header was not accepted: send one UsernameToken with a PasswordText"
                  + " password, over TLS");
    }
  }

  private static boolean hasSecurityHeader(SoapMessage message) {
    for (Header header : message.getHeaders()) {
      if (SECURITY.equals(header.getName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean authenticatedByHttp(SoapMessage message) {
    return message.get(AbstractHTTPDestination.HTTP_REQUEST) instanceof HttpServletRequest request
        && request.getUserPrincipal() != null;
  }
}
