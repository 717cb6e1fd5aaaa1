package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Keys;

/**
 * Form login with the API's accounts, the session cookie, CSRF protection, logout, keyboard use.
 */
class LoginAndSessionBrowserTest extends BrowserTest {

  @Test
  void aUserLogsInWithTheApiPasswordAndOut() throws Exception {
    browser.open("/jobs");
    browser.await("#username", 20);
    assertTrue(browser.driver().getCurrentUrl().endsWith("/login"), "pages need a login first");
    browser.shot("login-page");

    browser.find("#username").sendKeys(WebTestServer.ALICE);
    browser.find("#password").sendKeys("not alice's password");
    browser.find("#login").click();
    assertEquals("Wrong user name or password.", browser.await("#login-error", 20).getText());
    browser.shot("wrong-password");

    browser.logIn(WebTestServer.ALICE);
    assertEquals(WebTestServer.ALICE, browser.find("#signed-in-user").getText());
    assertTrue(browser.driver().getCurrentUrl().endsWith("/jobs"));
    browser.shot("signed-in");

    Cookie session = browser.driver().manage().getCookieNamed(GantryWebApplication.SESSION_COOKIE);
    assertNotNull(session, "the session cookie");
    assertTrue(session.isSecure(), "Secure");
    assertTrue(session.isHttpOnly(), "HttpOnly");
    assertEquals("Strict", session.getSameSite());

    browser.logOut();
    browser.shot("logged-out");
    browser.open("/jobs");
    browser.await("#username", 20);
    assertTrue(browser.driver().getCurrentUrl().endsWith("/login"), "the old session is gone");
  }

  @Test
  void aPostWithoutTheCsrfTokenIsRefused() throws Exception {
    browser.logIn(WebTestServer.BOB);
    Object status =
        browser.driver().manage().timeouts() == null
            ? null
            : ((org.openqa.selenium.JavascriptExecutor) browser.driver())
                .executeAsyncScript(
                    "const done = arguments[arguments.length - 1];"
                        + "fetch('/logout', {method: 'POST', credentials: 'same-origin'}).then(r => done(r.status));");
    assertEquals(403L, status, "logout without the token");
    Object forged =
        ((org.openqa.selenium.JavascriptExecutor) browser.driver())
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "fetch('/logout', {method: 'POST', credentials: 'same-origin',"
                    + " headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'csrf=forged'})"
                    + ".then(r => done(r.status));");
    assertEquals(403L, forged, "logout with a forged token");

    browser.open("/jobs");
    assertEquals(
        WebTestServer.BOB, browser.await("#signed-in-user", 20).getText(), "still logged in");
    browser.script("document.querySelector('header form.logout input[name=csrf]').remove();");
    browser.find("#logout").click();
    assertTrue(browser.await("#error-message", 20).getText().contains("refused"));
    browser.shot("form-without-token-refused");
    browser.open("/jobs");
    assertEquals(
        WebTestServer.BOB,
        browser.await("#signed-in-user", 20).getText(),
        "the refused logout did nothing");
  }

  @Test
  void theKeyboardAloneLogsIn() throws Exception {
    browser.open("/login");
    browser.await("#username", 20);
    assertEquals(
        "username", browser.script("return document.activeElement.id;"), "the form starts focused");
    browser.driver().switchTo().activeElement().sendKeys(WebTestServer.ALICE, Keys.TAB);
    assertEquals("password", browser.script("return document.activeElement.id;"));
    browser
        .driver()
        .switchTo()
        .activeElement()
        .sendKeys(server.account(WebTestServer.ALICE).password(), Keys.ENTER);
    assertEquals(WebTestServer.ALICE, browser.await("#signed-in-user", 20).getText());
    browser.shot("keyboard-login");
  }

  @Test
  void theLoginAndJobPagesFitAPhone() throws Exception {
    browser.resize(Browser.PHONE);
    browser.open("/login");
    browser.await("#username", 20);
    assertFalse(browser.scrollsSideways(), "login page at 390 px");
    browser.shot("login-phone");
    browser.logIn(WebTestServer.ALICE);
    assertFalse(browser.scrollsSideways(), "job list at 390 px");
    browser.shot("jobs-phone");
  }
}
