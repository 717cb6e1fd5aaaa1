package io.gantry.web;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every browser test class shares: one {@link WebServer} for the class, a fresh {@link
 * Browser} (own profile, no cookies) for each test, its screenshots under
 * {@code target/screenshots/<class>/<test>/}.
 */
abstract class BrowserTest {
  @TempDir static Path dir;
  static WebServer server;
  Browser browser;

  @BeforeAll
  static void startServer() throws Exception {
    server = WebServer.start(dir, Map.of());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @BeforeEach
  void startBrowser(TestInfo test) throws Exception {
    browser = new Browser(server, getClass().getSimpleName() + "/" + test.getTestMethod().orElseThrow().getName());
  }

  @AfterEach
  void stopBrowser() throws Exception {
    browser.close();
  }
}
