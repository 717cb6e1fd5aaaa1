package io.gantry.web;

import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver: a real browser for the web
 * application's tests. Its profile, cache and home live in a temporary directory; it talks to
 * nothing but the loopback server (background networking off, a proxy that leads nowhere for
 * anything else). The server's self-signed certificate is accepted for this loopback session.
 *
 * <p>{@link #shot} saves a screenshot of each step under {@code target/screenshots/}.
 */
final class Browser implements AutoCloseable {
  static final Dimension DESKTOP = new Dimension(1280, 900);
  static final Dimension PHONE = new Dimension(390, 844);

  private final ChromeDriver driver;
  private final GantryTestServer server;
  private final Path screenshots;
  private final Path home;
  private int step;

  Browser(GantryTestServer server, String testName) throws IOException {
    this.server = server;
    // Chromium's singleton socket lives in TMPDIR, and a Unix socket path has at most 107 bytes
    this.home = Files.createTempDirectory(Path.of("/tmp"), "gantry-chromium-");
    this.screenshots = Path.of("target", "screenshots", testName);
    Files.createDirectories(screenshots);
    Path profile = Files.createDirectories(home.resolve("chromium-profile"));
    System.setProperty("webdriver.chrome.driver", "/usr/bin/chromedriver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--no-first-run",
        "--proxy-server=http://127.0.0.1:9",
        "--proxy-bypass-list=127.0.0.1",
        "--user-data-dir=" + profile,
        "--window-size=1280,900");
    options.setAcceptInsecureCerts(true);
    Map<String, String> environment =
        Map.of(
            "HOME",
            home.toString(),
            "TMPDIR",
            home.toString(),
            "XDG_CONFIG_HOME",
            home.resolve("config").toString(),
            "XDG_CACHE_HOME",
            home.resolve("cache").toString(),
            "XDG_RUNTIME_DIR",
            home.toString());
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
            .withEnvironment(environment)
            .withLogFile(screenshots.resolve("chromedriver.log").toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
  }

  WebDriver driver() {
    return driver;
  }

  void open(String path) {
    driver.get(server.url(path));
  }

  void resize(Dimension size) {
    driver.manage().window().setSize(size);
  }

  /** Saves a screenshot named {@code NN-name.png}; returns its path. */
  Path shot(String name) throws IOException {
    Path file = screenshots.resolve(String.format("%02d-%s.png", ++step, name));
    Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    return file;
  }

  WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  List<WebElement> findAll(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /** Waits up to {@code seconds} for an element matching {@code css} to be visible. */
  WebElement await(String css, int seconds) {
    return new WebDriverWait(driver, Duration.ofSeconds(seconds))
        .until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
  }

  /** Waits until the element's text contains {@code text}. */
  void awaitText(String css, String text, int seconds) {
    new WebDriverWait(driver, Duration.ofSeconds(seconds))
        .until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
  }

  /** Clicks the element and waits until the browser has left the current page for the next one. */
  void clickAndAwaitNewPage(String css) {
    // a mark on the window object: the next document comes with a fresh window object, without it
    script("window.gantryOldPage = true;");
    find(css).click();
    new WebDriverWait(driver, Duration.ofSeconds(30))
        .ignoring(WebDriverException.class)
        .until(
            d ->
                !Boolean.TRUE.equals(script("return window.gantryOldPage === true;"))
                    && "complete".equals(script("return document.readyState;")));
  }

  Object script(String javascript, Object... arguments) {
    return ((JavascriptExecutor) driver).executeScript(javascript, arguments);
  }

  /** Whether the page is wider than the window (a horizontal scroll bar). */
  boolean scrollsSideways() {
    return (Boolean) script("return document.documentElement.scrollWidth > window.innerWidth;");
  }

  /** Logs in through the form and waits for the job list. */
  void logIn(String user) {
    open("/login");
    awaitLoginForm();
    find("#username").sendKeys(user);
    find("#password").sendKeys(server.account(user).password());
    find("#login").click();
    await("#signed-in-user", 20);
  }

  /**
   * Waits for the login form. A Chromium just started can still be finishing its own start-up
   * navigation when the first {@code get} returns, so the form is awaited, not assumed; when it
   * never comes, the failure says which page the browser showed instead.
   */
  private void awaitLoginForm() {
    if (!driver.getCurrentUrl().startsWith(server.url("/login"))) {
      open("/login"); // the start-up navigation replaced ours: ask once more
    }
    try {
      await("#username", 30);
    } catch (WebDriverException e) {
      String body = String.valueOf(script("return document.body ? document.body.innerText : '';"));
      throw new AssertionError(
          "no login form at "
              + driver.getCurrentUrl()
              + " (title \""
              + driver.getTitle()
              + "\"): "
              + body.substring(0, Math.min(400, body.length())),
          e);
    }
  }

  void logOut() {
    find("#logout").click();
    await("#username", 20);
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(home)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
