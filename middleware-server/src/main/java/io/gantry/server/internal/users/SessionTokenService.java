package io.gantry.server.internal.users;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.SessionToken;
import io.gantry.server.internal.jobstore.SessionTokens.StoredToken;
import io.gantry.server.internal.security.AccessTokens;
import io.gantry.server.internal.security.SessionTokenAuthenticator;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import java.util.List;
import java.util.Optional;

/**
 * The session-token operations of the SOAP API (issueSessionToken, listSessionTokens,
 * revokeSessionToken): who may do what with which token. A user sees and revokes their own tokens,
 * an administrator everyone's; a token is issued only to a caller who proved their password on this
 * request, so a stolen token cannot be turned into a longer-lived one.
 */
public final class SessionTokenService {
  private final Optional<SessionTokenAuthenticator> tokens;

  /**
   * @param tokens the server's session tokens; empty when it has no user accounts, and then every
   *     operation is refused
   */
  public SessionTokenService(Optional<SessionTokenAuthenticator> tokens) {
    this.tokens = tokens;
  }

  public SessionToken issue(Caller caller, String authType, String description)
      throws AccessDeniedFault {
    SessionTokenAuthenticator authenticator = enabled();
    if (SessionTokenAuthenticator.AUTH_TYPE.equals(authType)) {
      throw denied(
          "a session token cannot issue another one: authenticate with your password (HTTP Basic"
              + " or a UsernameToken) to get a new token");
    }
    if (AccessTokens.AUTH_TYPE.equals(authType)) {
      // an access token lives minutes: it must not become a session token that lives hours
      throw denied(
          "an identity provider's access token cannot issue a session token: use the access"
              + " token itself, or authenticate with your password");
    }
    return authenticator
        .issue(caller.name(), description)
        .map(
            issued -> {
              SessionToken answer = of(issued.token());
              answer.token = issued.secret();
              return answer;
            })
        .orElseThrow(() -> denied("user " + caller.name() + " no longer exists"));
  }

  public List<SessionToken> list(Caller caller, boolean allUsers) throws AccessDeniedFault {
    SessionTokenAuthenticator authenticator = enabled();
    if (allUsers && !caller.admin()) {
      throw denied("only administrators may list every user's session tokens");
    }
    return authenticator.list(allUsers ? null : caller.name()).stream()
        .map(SessionTokenService::of)
        .toList();
  }

  public boolean revoke(Caller caller, String tokenId) {
    if (tokenId == null || !tokenId.matches("[0-9a-f]{16}")) {
      throw new InvalidArgumentException("tokenId", "not a session token id (16 hex digits)");
    }
    return tokens.map(t -> t.revoke(tokenId, caller.admin() ? null : caller.name())).orElse(false);
  }

  private SessionTokenAuthenticator enabled() throws AccessDeniedFault {
    Optional<SessionTokenAuthenticator> current = tokens;
    if (current.isEmpty()) {
      throw denied(
          "this server has no user accounts (auth.enabled=false): it needs no session tokens");
    }
    return current.get();
  }

  private static AccessDeniedFault denied(String message) {
    return new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
  }

  private static SessionToken of(StoredToken stored) {
    SessionToken token = new SessionToken();
    token.tokenId = stored.id();
    token.user = stored.user();
    token.description = stored.description();
    token.created = stored.created();
    token.expires = stored.expires();
    return token;
  }
}
