package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAuthenticator;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.cxf.message.Message;
import org.apache.cxf.transport.http.AbstractHTTPDestination;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.handler.RequestData;
import org.apache.wss4j.dom.message.token.UsernameToken;
import org.apache.wss4j.dom.validate.Credential;
import org.apache.wss4j.dom.validate.Validator;

/**
 * Checks a WS-Security UsernameToken against the user accounts. Only plain-text password tokens are
 * accepted (over TLS): a digest token proves knowledge of the clear password, which the server does
 * not keep, so it cannot be checked against a salted hash and is refused.
 */
final class UsernameTokenValidator implements Validator {
  /** Message property: why the token was refused, in words safe to send to the client. */
  static final String REASON = UsernameTokenValidator.class.getName() + ".reason";

  static final String DIGEST_REFUSED = "PasswordDigest is not accepted: send PasswordText over TLS";
  static final String WRONG_LOGIN = "unknown user or wrong password";
  private final UserAuthenticator authenticator;

  UsernameTokenValidator(UserAuthenticator authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  public Credential validate(Credential credential, RequestData data) throws WSSecurityException {
    UsernameToken token = credential == null ? null : credential.getUsernametoken();
    if (token == null || token.getPassword() == null) {
      refuse(data, "the UsernameToken carries no password: send a PasswordText password, over TLS");
      throw new WSSecurityException(WSSecurityException.ErrorCode.FAILED_AUTHENTICATION);
    }
    if (token.isHashed() || !WSConstants.PASSWORD_TEXT.equals(token.getPasswordType())) {
      refuse(data, DIGEST_REFUSED);
      throw new WSSecurityException(
          WSSecurityException.ErrorCode.UNSUPPORTED_SECURITY_TOKEN,
          "unsupportedSecurityToken",
          new Object[] {"UsernameToken with PasswordDigest: use PasswordText over TLS"});
    }
    if (authenticator
        .authenticate(token.getName(), token.getPassword().toCharArray(), remoteAddress(data))
        .isEmpty()) {
      refuse(data, WRONG_LOGIN);
      throw new WSSecurityException(WSSecurityException.ErrorCode.FAILED_AUTHENTICATION);
    }
    return credential;
  }

  private static void refuse(RequestData data, String reason) {
    if (data.getMsgContext() instanceof Message message) {
      message.put(REASON, reason);
    }
  }

  private static String remoteAddress(RequestData data) {
    if (data.getMsgContext() instanceof Message message
        && message.get(AbstractHTTPDestination.HTTP_REQUEST)
            instanceof HttpServletRequest request) {
      return request.getRemoteAddr();
    }
    return "an unknown address";
  }
}
