package io.gantry.testing.server;

import io.gantry.testing.server.internal.ServerJvm;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The demo market database made once per build and size, and copied into the data directory of
 * every test server that runs the demo. The server generates it on a first start (six years of
 * closes, about 115,000 rows: ten seconds and more on a busy 2-core machine), and some twenty test
 * classes start a demo server, many of them more than once; each would pay for the same,
 * deterministic database again.
 *
 * <p>The template is made the way a test's server makes it: a gantry-server started with the demo
 * on, on a data directory of its own, and stopped (SIGTERM) before its {@code demo/market.mv.db} is
 * copied with the demo SSH host's keys; no job has run on it, so its result tables are empty. A
 * server that finds the file there takes it as its own (docs/sample-var-job.md, "The database's
 * life"): it sets its staging accounts' passwords from its own password files on every start, so
 * the template's passwords are never used. Its key is what the generation depends on: the demo's
 * size, the server's code (every class and resource of the jar or directory that holds
 * gantry-server's main class) and the H2 library that writes the file. Templates live under {@code
 * target/demo-market-templates} of the module whose tests run; test JVMs of one module (parallel
 * forks) share them under a file lock.
 */
final class DemoMarketTemplates {
  private static final Path TEMPLATES = Path.of("target", "demo-market-templates");
  private static final String MARKET_FILE = "market.mv.db";

  /**
   * What a server makes in {@code DATA/demo} on a first start and a template can hand on: the
   * database and the demo SSH host's keys. The staging accounts' password files are not among them:
   * each server makes its own.
   */
  private static final List<String> COPIED =
      List.of(MARKET_FILE, "demo-remote-id", "demo-remote-id.pub", "ssh-host-key");

  private static final Object IN_THIS_JVM = new Object();
  private static String codeDigest;

  private DemoMarketTemplates() {}

  /**
   * Copies the template for {@code settings} into {@code dataDir/demo/} when they turn the demo on
   * and the data directory holds no demo database yet (a restart keeps its own).
   */
  static void seed(Map<String, String> settings, Path dataDir) {
    if (!"true".equals(settings.get("demo.enabled"))) {
      return;
    }
    Path demo = dataDir.resolve("demo");
    if (Files.exists(demo.resolve(MARKET_FILE))) {
      return;
    }
    String positions = settings.getOrDefault("demo.positions", "default");
    try {
      Path template = template(positions);
      // as the server makes them (PrivateDataDirectory): the directory 0700, its files 0600
      if (!Files.isDirectory(demo)) {
        Files.createDirectories(demo);
        Files.setPosixFilePermissions(demo, PosixFilePermissions.fromString("rwx------"));
      }
      for (String name : COPIED) {
        Path file = template.resolve(name);
        if (Files.exists(file) && !Files.exists(demo.resolve(name))) {
          Files.copy(file, demo.resolve(name));
          Files.setPosixFilePermissions(
              demo.resolve(name), PosixFilePermissions.fromString("rw-------"));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the demo market database template", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while making the demo market template", e);
    }
  }

  /** The template's directory for this size, made now if this build has none yet. */
  private static Path template(String positions) throws IOException, InterruptedException {
    Files.createDirectories(TEMPLATES);
    String key = "positions-" + positions + "-" + codeDigest().substring(0, 16);
    Path template = TEMPLATES.resolve(key);
    synchronized (IN_THIS_JVM) {
      try (FileChannel lockFile =
              FileChannel.open(
                  TEMPLATES.resolve(key + ".lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock lock = lockFile.lock()) {
        if (!Files.exists(template)) {
          make(positions, key, template);
        }
      }
    }
    return template;
  }

  private static void make(String positions, String key, Path template)
      throws IOException, InterruptedException {
    Path work = Files.createTempDirectory(TEMPLATES, key + ".making.");
    GantryTestServerBuilder builder =
        GantryTestServer.builder(work).name("demo-market-template").withoutPremadeFiles();
    builder.setting("demo.enabled", "true").setting("demo.ssh-port", "0");
    if (!positions.equals("default")) {
      builder.setting("demo.positions", positions);
    }
    // the password key pair is no part of a template: the one of this JVM spares the maker's
    // server the search for two 1536-bit primes in C1 (seconds, tens of seconds under load)
    builder.writeConfig();
    PasswordKeys.place(builder.dataDir());
    try (GantryTestServer server = builder.start()) {
      // started: the database is made before the server listens
    }
    Path made = builder.dataDir().resolve("demo");
    Path partial = Files.createTempDirectory(TEMPLATES, key + ".partial.");
    for (String name : COPIED) {
      if (Files.exists(made.resolve(name))) {
        Files.copy(made.resolve(name), partial.resolve(name));
      }
    }
    Files.move(partial, template, StandardCopyOption.ATOMIC_MOVE);
    deleteTree(work);
  }

  /** The digest of the server's code and of the H2 library, computed once per JVM. */
  private static synchronized String codeDigest() throws IOException {
    if (codeDigest == null) {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String resource :
            List.of(ServerJvm.MAIN.replace('.', '/') + ".class", "org/h2/Driver.class")) {
          digestCodeSource(sha, resource);
        }
        codeDigest = HexFormat.of().formatHex(sha.digest());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is part of every JDK", e);
      }
    }
    return codeDigest;
  }

  /** Adds the jar or class directory that holds {@code resource} to {@code sha}. */
  private static void digestCodeSource(MessageDigest sha, String resource) throws IOException {
    URL url = ClassLoader.getSystemResource(resource);
    if (url == null) {
      throw new IllegalStateException(resource + " is not on this test's class path");
    }
    String text = url.toString();
    try {
      if (text.startsWith("jar:file:")) {
        digestFile(sha, Path.of(URI.create(text.substring(4, text.indexOf("!/")))));
      } else if (text.startsWith("file:")) {
        Path file = Path.of(url.toURI());
        Path root = file;
        for (int i = 0; i < resource.split("/").length; i++) {
          root = root.getParent();
        }
        try (Stream<Path> files = Files.walk(root)) {
          for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
            sha.update(root.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
            digestFile(sha, f);
          }
        }
      } else {
        throw new IllegalStateException("cannot read the code source of " + resource + ": " + url);
      }
    } catch (URISyntaxException e) {
      throw new IllegalStateException("not a file URL: " + url, e);
    }
  }

  private static void digestFile(MessageDigest sha, Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[65536];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha.update(buffer, 0, n);
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
