package io.gantry.server.internal.identity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A test certificate authority and a server certificate it signed for 127.0.0.1 and localhost, made
 * with the openssl command line: PEM files for slapd and a PKCS12 store for Java servers. A client
 * trusts {@link #caFile()} as a site trusts its own authority.
 */
final class TestCertificates {
  static final String STORE_PASSWORD = "test-store";
  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** A new authority and server certificate in {@code dir}. */
  static TestCertificates make(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    TestCertificates made = new TestCertificates(dir);
    made.openssl(
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Gantry test CA");
    made.openssl(
        "req",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost");
    made.openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "server.ext");
    made.openssl(
        "pkcs12",
        "-export",
        "-in",
        "server.pem",
        "-inkey",
        "server.key",
        "-name",
        "server",
        "-out",
        "server.p12",
        "-passout",
        "pass:" + STORE_PASSWORD);
    return made;
  }

  Path caFile() {
    return dir.resolve("ca.pem");
  }

  Path certificateFile() {
    return dir.resolve("server.pem");
  }

  Path keyFile() {
    return dir.resolve("server.key");
  }

  /** The server's key and certificate as PKCS12, with {@link #STORE_PASSWORD}. */
  Path keyStore() {
    return dir.resolve("server.p12");
  }

  private void openssl(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(arguments));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
  }
}
