package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAuthenticator;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import org.apache.cxf.binding.soap.SoapFault;
import org.apache.cxf.binding.soap.SoapMessage;
import org.apache.cxf.binding.soap.interceptor.AbstractSoapInterceptor;
import org.apache.cxf.interceptor.Fault;
import org.apache.cxf.phase.Phase;
import org.apache.cxf.security.SecurityContext;
import org.apache.cxf.transport.http.AbstractHTTPDestination;

/**
 * Right after the SOAP headers were read and a UsernameToken checked, before the body is
 * unmarshalled: a request that neither HTTP Basic nor a UsernameToken authenticated is refused with
 * a SOAP fault over HTTP 401. An authenticated one gets the user's current role from the accounts
 * (a user made admin, or removed, counts from the next request on), as the security context {@code
 * Caller} reads.
 */
final class AuthenticationRequiredInterceptor extends AbstractSoapInterceptor {
  static final String MESSAGE =
      "authentication required: HTTP Basic or a WS-Security"
          + " UsernameToken (PasswordText), over TLS";
  private final UserAuthenticator authenticator;

  AuthenticationRequiredInterceptor(UserAuthenticator authenticator) {
    super(Phase.PRE_PROTOCOL);
    addAfter(UsernameTokenInterceptor.class.getName());
    this.authenticator = authenticator;
  }

  @Override
  public void handleMessage(SoapMessage message) throws Fault {
    SecurityContext context = message.get(SecurityContext.class);
    Principal principal = context == null ? null : context.getUserPrincipal();
    if (principal == null) {
      throw refusal(message);
    }
    AccountPrincipal account =
        authenticator
            .find(principal.getName())
            .map(AccountPrincipal::of)
            .orElseThrow(() -> refusal(message));
    message.put(SecurityContext.class, account);
  }

  private static SoapFault refusal(SoapMessage message) {
    return unauthorized(message, MESSAGE);
  }

  /**
   * A {@code Client}/{@code Sender} fault answered with HTTP 401 and a Basic challenge, as RFC 9110
   * asks of a 401: zeep, curl and browsers then know a login is what is missing.
   */
  static SoapFault unauthorized(SoapMessage message, String reason) {
    SoapFault fault = new SoapFault(reason, message.getVersion().getSender());
    fault.setStatusCode(HttpServletResponse.SC_UNAUTHORIZED);
    if (message.get(AbstractHTTPDestination.HTTP_RESPONSE)
        instanceof HttpServletResponse response) {
      response.setHeader("WWW-Authenticate", BasicAuthenticationFilter.CHALLENGE);
    }
    return fault;
  }
}
