package io.gantry.server.internal.notify;

import io.gantry.testing.TestKeystore;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A real SMTP server on loopback for the mail tests: Python's aiosmtpd (Debian's python3-aiosmtpd,
 * scripts/install-deps) running smtp-receiver.py under Debian's Python (where that package lives),
 * with STARTTLS and the test certificate, or without STARTTLS at all. Messages it accepted are read
 * back from its directory.
 */
final class SmtpReceiver implements AutoCloseable {
  private final Process process;
  private final Path directory;
  private final int port;

  private SmtpReceiver(Process process, Path directory, int port) {
    this.process = process;
    this.directory = directory;
    this.port = port;
  }

  /**
   * A server that offers STARTTLS with {@code tls}'s certificate and refuses mail before it, and
   * before a login as {@code user} with {@code password} (given to it in a file, never as an
   * argument).
   */
  static SmtpReceiver withStartTls(Path directory, TestKeystore tls, String user, String password)
      throws Exception {
    Files.createDirectories(directory);
    Files.writeString(directory.resolve("login"), user + "\n" + password + "\n");
    Path cert = directory.resolve("cert.pem");
    Path key = directory.resolve("key.pem");
    writePem(tls, cert, key);
    return start(directory, List.of("starttls", cert.toString(), key.toString()));
  }

  /** A server that offers no STARTTLS: a client that requires it must not send. */
  static SmtpReceiver withoutStartTls(Path directory) throws Exception {
    Files.createDirectories(directory);
    return start(directory, List.of("plain"));
  }

  private static SmtpReceiver start(Path directory, List<String> mode) throws IOException {
    Path script = directory.resolve("smtp-receiver.py");
    try (InputStream in = SmtpReceiver.class.getResourceAsStream("smtp-receiver.py")) {
      Files.write(script, in.readAllBytes());
    }
    List<String> command = new ArrayList<>(List.of("/usr/bin/python3", script.toString(), "."));
    command.addAll(mode);
    Process process =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectError(directory.resolve("stderr.txt").toFile())
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine(); // printed once it listens
    if (line == null) {
      process.destroy();
      throw new IllegalStateException(
          "the SMTP server did not start: " + Files.readString(directory.resolve("stderr.txt")));
    }
    return new SmtpReceiver(process, directory, Integer.parseInt(line.strip()));
  }

  int port() {
    return port;
  }

  /** The next message is answered with a temporary 451 (the server refusing once). */
  void refuseNext() throws IOException {
    Files.writeString(directory.resolve("refuse-next"), "");
  }

  /** The messages accepted so far, oldest first. */
  List<MimeMessage> messages() throws IOException, MessagingException {
    return read("msg");
  }

  /** The messages refused (after {@link #refuseNext()}) so far, oldest first. */
  List<MimeMessage> refused() throws IOException, MessagingException {
    return read("refused");
  }

  private List<MimeMessage> read(String kind) throws IOException, MessagingException {
    Session session = Session.getInstance(new Properties());
    List<MimeMessage> messages = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      List<Path> sorted =
          files
              .filter(f -> f.getFileName().toString().matches(kind + "-\\d+\\.eml"))
              .sorted(
                  (a, b) ->
                      Integer.compare(
                          number(a.getFileName().toString()), number(b.getFileName().toString())))
              .toList();
      for (Path file : sorted) {
        try (InputStream in = Files.newInputStream(file)) {
          messages.add(new MimeMessage(session, in));
        }
      }
    }
    return messages;
  }

  private static int number(String name) {
    return Integer.parseInt(name.substring(name.indexOf('-') + 1, name.length() - 4));
  }

  /** The certificate and its private key as PEM, the form Python's ssl module loads. */
  private static void writePem(TestKeystore tls, Path cert, Path key)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(tls.file())) {
      store.load(in, tls.password());
    }
    Base64.Encoder base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
    Files.writeString(
        cert,
        "-----BEGIN CERTIFICATE-----\n"
            + base64.encodeToString(store.getCertificate("test").getEncoded())
            + "\n-----END CERTIFICATE-----\n");
    Files.writeString(
        key,
        "-----BEGIN PRIVATE KEY-----\n"
            + base64.encodeToString(store.getKey("test", tls.password()).getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
