package io.gantry.server.internal.identity;

import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.config.ServerConfig;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Connects the configured directory and identity provider to the server's logins. */
public final class IdentityWiring {
  private static final Logger log = LoggerFactory.getLogger(IdentityWiring.class);

  private IdentityWiring() {}

  /** Directory logins with directory.url, access tokens with oidc.issuer; neither by default. */
  public static void connect(ServerConfig config, UserAuthenticator authenticator) {
    config
        .directory()
        .ifPresent(
            directory -> {
              authenticator.useDirectory(new LdapDirectory(directory, Clock.systemUTC()));
              log.info(
                  "directory logins from {}:{} ({}), users under {}",
                  directory.host(),
                  directory.port(),
                  directory.startTls() ? "StartTLS" : "LDAPS",
                  directory.userBase());
            });
    config
        .oidc()
        .ifPresent(
            oidc -> {
              authenticator.acceptAccessTokens(new OidcAccessTokens(oidc));
              log.info(
                  "access tokens of {} for audience {} accepted, user from claim {}",
                  oidc.issuer(),
                  oidc.audience(),
                  oidc.userClaim());
            });
  }
}
