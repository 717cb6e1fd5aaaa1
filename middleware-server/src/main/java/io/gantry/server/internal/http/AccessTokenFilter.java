package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.internal.security.AccessTokens;
import io.gantry.server.internal.security.SessionTokenAuthenticator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The identity provider's access tokens ({@code Authorization: Bearer eyJ...}, an OIDC JWT) in
 * front of {@code /services/*}, before {@link SessionTokenFilter}, which keeps Gantry's own tokens
 * ({@code gantry_st_...}). A valid token names a user, who must exist as a local account or in the
 * directory ({@link UserAuthenticator#find}); a refused one gets 401 with {@code WWW-Authenticate:
 * Bearer error="invalid_token"} (RFC 6750, section 3.1). The token never reaches a log.
 */
final class AccessTokenFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(AccessTokenFilter.class);
  private final transient UserAuthenticator authenticator;
  private final transient AccessTokens tokens;

  AccessTokenFilter(UserAuthenticator authenticator, AccessTokens tokens) {
    this.authenticator = authenticator;
    this.tokens = tokens;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String header = request.getHeader("Authorization");
    if (header == null
        || !header.regionMatches(true, 0, "Bearer ", 0, 7)
        || header.substring(7).strip().startsWith(SessionTokenAuthenticator.PREFIX)) {
      chain.doFilter(request, response);
      return;
    }
    AccessTokens.Check check = tokens.verify(header.substring(7).strip());
    Optional<UserAccount> account = check.user().flatMap(authenticator::find);
    if (account.isEmpty()) {
      String why =
          check.user().isEmpty()
              ? check.refusal()
              : "the access token's user " + check.user().get() + " is no Gantry user";
      log.warn("refused an access token from {}: {}", request.getRemoteAddr(), why);
      response.setHeader(
          "WWW-Authenticate",
          "Bearer realm=\"gantry\", error=\"invalid_token\", error_description=\""
              + why.replaceAll("[^\\x20-\\x7e]", "?").replace("\"", "'")
              + "\"");
      SoapFaultAnswer.send(request, response, HttpServletResponse.SC_UNAUTHORIZED, why);
      return;
    }
    chain.doFilter(
        new AuthenticatedRequest(
            request, AccountPrincipal.of(account.get()), AccessTokens.AUTH_TYPE),
        response);
  }
}
