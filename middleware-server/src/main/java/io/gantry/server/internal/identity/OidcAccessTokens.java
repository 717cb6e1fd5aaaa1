package io.gantry.server.internal.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.security.AccessTokens;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.text.ParseException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access tokens of an OpenID Connect provider, checked with Nimbus JOSE+JWT as RFC 9068 ("JSON Web
 * Token Profile for OAuth 2.0 Access Tokens") and RFC 8725 ("JSON Web Token Best Current
 * Practices") ask:
 *
 * <ol>
 *   <li>The provider's keys come from the {@code jwks_uri} of its discovery document ({@code
 *       ISSUER/.well-known/openid-configuration}, OpenID Connect Discovery 1.0), fetched over HTTPS
 *       on first use; the document's {@code issuer} must be the configured one. Keys are cached and
 *       fetched again when a token names a key id not yet seen (the provider rolled its keys).
 *   <li>The signature must be an asymmetric one (RSA, RSA-PSS or ECDSA) by one of those keys: no
 *       {@code none}, no HMAC with a public key as secret.
 *   <li>{@code iss} must be the issuer, {@code aud} must hold the configured audience, {@code exp}
 *       must be in the future and {@code nbf}, if present, past (a minute's clock skew allowed),
 *       and the user claim must be there. The header's {@code typ}, if present, must be {@code
 *       at+jwt} or {@code JWT}.
 * </ol>
 *
 * <p>The token's user claim is the Gantry user name; whether that user exists and may act is
 * decided as for any login (local account or directory).
 */
public final class OidcAccessTokens implements AccessTokens {
  private static final Logger log = LoggerFactory.getLogger(OidcAccessTokens.class);
  private static final int TIMEOUT_MILLIS = 10_000;
  private static final int SIZE_LIMIT = 512 * 1024;
  private final ServerConfig.Oidc settings;
  private final DefaultResourceRetriever retriever;
  private volatile DefaultJWTProcessor<SecurityContext> processor;

  public OidcAccessTokens(ServerConfig.Oidc settings) {
    this.settings = settings;
    this.retriever =
        new DefaultResourceRetriever(
            TIMEOUT_MILLIS, TIMEOUT_MILLIS, SIZE_LIMIT, true, socketFactory(settings));
  }

  @Override
  public Check verify(String token) {
    DefaultJWTProcessor<SecurityContext> p;
    try {
      p = processor();
    } catch (IOException | ParseException | URISyntaxException e) {
      log.error(
          "cannot read the OIDC provider's discovery document at {}: {}",
          discovery(),
          e.getMessage());
      return Check.refused("the identity provider cannot be reached to check the access token");
    }
    try {
      JWTClaimsSet claims = p.process(token, null);
      Object user = claims.getClaim(settings.userClaim());
      if (!(user instanceof String name) || name.isBlank()) {
        return Check.refused("the access token's " + settings.userClaim() + " claim is no name");
      }
      return Check.of(name);
    } catch (ParseException e) {
      return Check.refused("not a signed JWT access token");
    } catch (BadJWTException e) {
      // Nimbus's words name the failed check (expired, wrong audience, ...), never a secret
      return Check.refused("access token refused: " + e.getMessage());
    } catch (BadJOSEException e) {
      return Check.refused("access token refused: " + e.getMessage());
    } catch (com.nimbusds.jose.JOSEException e) {
      log.error("cannot check an access token's signature: {}", e.getMessage());
      return Check.refused("the access token's signature could not be checked");
    }
  }

  private String discovery() {
    String issuer = settings.issuer();
    return (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
        + "/.well-known/openid-configuration";
  }

  /** Built on first use, so that a provider down at the server's start delays nothing. */
  private DefaultJWTProcessor<SecurityContext> processor()
      throws IOException, ParseException, URISyntaxException {
    DefaultJWTProcessor<SecurityContext> p = processor;
    if (p != null) {
      return p;
    }
    synchronized (this) {
      if (processor != null) {
        return processor;
      }
      Resource document = retriever.retrieveResource(new URI(discovery()).toURL());
      Map<String, Object> metadata = JSONObjectUtils.parse(document.getContent());
      String issuer = JSONObjectUtils.getString(metadata, "issuer");
      if (!settings.issuer().equals(issuer)) {
        throw new IOException("its issuer is " + issuer + ", not oidc.issuer " + settings.issuer());
      }
      URL jwks = new URI(JSONObjectUtils.getString(metadata, "jwks_uri")).toURL();
      if (!"https".equalsIgnoreCase(jwks.getProtocol())) {
        throw new IOException("its jwks_uri is not https: " + jwks);
      }
      JWKSource<SecurityContext> keys =
          JWKSourceBuilder.<SecurityContext>create(jwks, retriever).build();
      Set<JWSAlgorithm> algorithms = new HashSet<>();
      algorithms.addAll(JWSAlgorithm.Family.RSA);
      algorithms.addAll(JWSAlgorithm.Family.EC);
      DefaultJWTProcessor<SecurityContext> made = new DefaultJWTProcessor<>();
      made.setJWSTypeVerifier(
          new DefaultJOSEObjectTypeVerifier<>(
              new JOSEObjectType("at+jwt"), JOSEObjectType.JWT, null));
      made.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
      made.setJWTClaimsSetVerifier(
          new DefaultJWTClaimsVerifier<>(
              settings.audience(),
              new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
              Set.of("exp", settings.userClaim())));
      processor = made;
      return made;
    }
  }

  /** Trusts the configured authorities, or the Java runtime's. */
  private static SSLSocketFactory socketFactory(ServerConfig.Oidc settings) {
    if (settings.caFile().isEmpty()) {
      return null;
    }
    try (var in = Files.newInputStream(settings.caFile().get())) {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (var cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trust.setCertificateEntry("ca" + i++, (X509Certificate) cert);
      }
      if (i == 0) {
        throw new IllegalStateException(
            "oidc.ca-file " + settings.caFile().get() + " holds no certificate");
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context.getSocketFactory();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot read oidc.ca-file " + settings.caFile().get() + ": " + e.getMessage(), e);
    }
  }
}
