package io.gantry.server.internal.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An OpenID Connect provider's public face, started by a test: the discovery document ({@code
 * /.well-known/openid-configuration}) and the JWKS over HTTPS on a loopback port, with a
 * certificate from {@link TestCertificates}, and access tokens (RFC 9068) signed with an RSA key it
 * generated. Tokens are handed to the test directly (as a client credentials grant would hand them
 * to a service): Gantry only checks tokens, so the provider's token endpoint is not what is tested.
 *
 * <p>Why not a full provider: none light enough runs here offline. Debian's LemonLDAP::NG needs a
 * web server with FastCGI and its own configuration store, Keycloak is a large download and a slow
 * start, and the small Java "mock" providers are stand-ins themselves. What Gantry relies on of a
 * provider is exactly this face (discovery, JWKS, signed tokens), served here over real HTTPS with
 * real keys and checked by the same library a production provider's tokens are.
 */
final class TestOidcProvider implements AutoCloseable {
  private final HttpsServer server;
  private final RSAKey key;
  private final AtomicInteger jwksFetches = new AtomicInteger();

  private TestOidcProvider(HttpsServer server, RSAKey key) {
    this.server = server;
    this.key = key;
  }

  static TestOidcProvider start(TestCertificates tls) throws Exception {
    RSAKey key = new RSAKeyGenerator(2048).keyID("test-" + UUID.randomUUID()).generate();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.keyStore())) {
      store.load(in, TestCertificates.STORE_PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, TestCertificates.STORE_PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    TestOidcProvider provider = new TestOidcProvider(server, key);
    server.createContext(
        "/.well-known/openid-configuration",
        exchange ->
            answer(
                exchange,
                com.nimbusds.jose.util.JSONObjectUtils.toJSONString(
                    Map.of(
                        "issuer", provider.issuer(),
                        "jwks_uri", provider.issuer() + "/jwks",
                        "response_types_supported", java.util.List.of("code"),
                        "subject_types_supported", java.util.List.of("public"),
                        "id_token_signing_alg_values_supported", java.util.List.of("RS256")))));
    server.createContext(
        "/jwks",
        exchange -> {
          provider.jwksFetches.incrementAndGet();
          answer(exchange, new JWKSet(key.toPublicJWK()).toString());
        });
    server.start();
    return provider;
  }

  /** The issuer URL: https://127.0.0.1:PORT. */
  String issuer() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * A token for {@code user} (claim preferred_username) and {@code audience}, valid {@code life}.
   */
  String accessToken(String user, String audience, Duration life) throws Exception {
    return sign(key, issuer(), user, audience, Instant.now().plus(life));
  }

  /** The same token, signed by another key that claims to be this provider's. */
  String forgedToken(String user, String audience) throws Exception {
    RSAKey other = new RSAKeyGenerator(2048).keyID(key.getKeyID()).generate();
    return sign(other, issuer(), user, audience, Instant.now().plus(Duration.ofMinutes(5)));
  }

  /** A token of another issuer, signed by this provider's own key. */
  String tokenOfIssuer(String issuer, String user, String audience) throws Exception {
    return sign(key, issuer, user, audience, Instant.now().plus(Duration.ofMinutes(5)));
  }

  private static String sign(RSAKey key, String issuer, String user, String audience, Instant exp)
      throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .subject(UUID.nameUUIDFromBytes(user.getBytes(StandardCharsets.UTF_8)).toString())
            .audience(audience)
            .claim("preferred_username", user)
            .claim("client_id", "gantry-test-client")
            .issueTime(Date.from(Instant.now())) // Nimbus takes a Date
            .expirationTime(Date.from(exp))
            .jwtID(UUID.randomUUID().toString())
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(key.getKeyID())
                .type(new JOSEObjectType("at+jwt"))
                .build(),
            claims);
    jwt.sign(new RSASSASigner(key));
    return jwt.serialize();
  }

  private static void answer(HttpExchange exchange, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
