package io.gantry.web;

import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every browser test class shares: one {@link WebTestServer} for the class, a fresh {@link
 * Browser} (own profile, no cookies) for each test, its screenshots under {@code
 * target/screenshots/<class>/<test>/}.
 */
abstract class BrowserTest {
  @TempDir static Path dir;
  static GantryTestServer server;
  Browser browser;

  @BeforeAll
  static void startServer() throws Exception {
    server = WebTestServer.start(dir, Map.of());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @BeforeEach
  void startBrowser(TestInfo test) throws Exception {
    browser =
        new Browser(
            server,
            getClass().getSimpleName() + "/" + test.getTestMethod().orElseThrow().getName());
  }

  @AfterEach
  void stopBrowser() throws Exception {
    browser.close();
  }
}
