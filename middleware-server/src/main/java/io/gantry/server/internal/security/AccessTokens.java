package io.gantry.server.internal.security;

import io.gantry.server.auth.UserAuthenticator;
import java.util.Optional;

/**
 * Access tokens issued by the site's identity provider (OIDC, RFC 9068 JWTs), accepted as {@code
 * Authorization: Bearer} beside Gantry's own session tokens. A token names a user; {@link
 * UserAuthenticator#find} then decides whether that user may act, as for any other login.
 */
public interface AccessTokens {
  /** The servlet authentication type of a request that carried an access token. */
  String AUTH_TYPE = "OIDC_ACCESS_TOKEN";

  /** The user name the token was issued for, or why it was refused (words safe to send back). */
  Check verify(String token);

  /** The outcome of {@link #verify}: a user name, or the reason for a refusal. */
  record Check(Optional<String> user, String refusal) {
    public static Check refused(String why) {
      return new Check(Optional.empty(), why);
    }

    public static Check of(String user) {
      return new Check(Optional.of(user), null);
    }
  }
}
