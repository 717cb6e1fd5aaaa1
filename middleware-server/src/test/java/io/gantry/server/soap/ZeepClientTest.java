package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.security.TlsKeystore;
import io.gantry.soap.SoapContract;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Python's zeep, a SOAP stack Gantry did not write, drives the whole job lifecycle against a real
 * server over TLS: once logged in with HTTP Basic, once with a WS-Security UsernameToken, each over
 * SOAP 1.1 and 1.2 (src/test/python/zeep_lifecycle.py says what it checks). zeep is installed by
 * scripts/soap-clients-venv, which scripts/test-all runs, into .venv-soap-clients/.
 */
class ZeepClientTest {
  static final Path VENV_PYTHON = Path.of("..", ".venv-soap-clients", "bin", "python");
  static final Path SCRIPT = Path.of("src", "test", "python", "zeep_lifecycle.py");
  static final String USER = "zoe";
  static final String PASSWORD = "zoe-pässword-1";

  @TempDir static Path dir;
  static GantryTestServer server;
  static Path pem;
  static Path wsdl;

  @BeforeAll
  static void start() throws Exception {
    assertTrue(
        Files.isExecutable(VENV_PYTHON),
        "zeep is not installed: run scripts/soap-clients-venv"
            + " (scripts/test-all does) to create "
            + VENV_PYTHON.toAbsolutePath().normalize());
    server =
        GantryTestServer.builder(dir)
            .secure()
            .account(new TestAccount(USER, PASSWORD, false, null))
            .start();
    pem = dir.resolve("server.pem");
    Files.writeString(pem, pemOf(server.dataDir().resolve("tls")));
    // the published contract from the class path (soap-contract), as zeep's user would download it
    wsdl = dir.resolve("JobManagement.wsdl");
    try (InputStream in = SoapContract.wsdl().openStream()) {
      Files.copy(in, wsdl);
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The server's self-signed certificate as PEM: what a Python user is handed to trust. */
  private static String pemOf(Path tlsDirectory) throws Exception {
    TlsKeystore keystore = TlsKeystore.loadOrGenerate(tlsDirectory);
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(keystore.file())) {
      store.load(in, keystore.password().toCharArray());
    }
    Certificate certificate = store.getCertificate(store.aliases().nextElement());
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  @ParameterizedTest(name = "zeep runs the whole lifecycle logged in with {0}")
  @ValueSource(strings = {"basic", "wsse"})
  void zeepRunsTheWholeLifecycleOverSoap11And12(String auth) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                VENV_PYTHON.toString(),
                SCRIPT.toString(),
                "--wsdl",
                wsdl.toString(),
                "--url",
                server.url(),
                "--url12",
                JobManagementClients.soap12Url(server),
                "--auth",
                auth,
                "--user",
                USER,
                "--cafile",
                pem.toString()));
    Path log = dir.resolve("zeep-" + auth + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    // nothing from the environment may redirect or re-trust the client's traffic
    builder
        .environment()
        .keySet()
        .removeIf(
            k ->
                k.toLowerCase(java.util.Locale.ROOT).endsWith("_proxy")
                    || k.equals("REQUESTS_CA_BUNDLE")
                    || k.equals("CURL_CA_BUNDLE"));
    Process python = builder.start();
    try (OutputStream stdin = python.getOutputStream()) {
      stdin.write((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8)); // never in the arguments
    }
    boolean ended = python.waitFor(240, TimeUnit.SECONDS);
    if (!ended) {
      python.destroyForcibly().waitFor();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertTrue(ended, "zeep did not finish in 240 s:\n" + output);
    assertEquals(0, python.exitValue(), "zeep's checks failed:\n" + output);
  }
}
