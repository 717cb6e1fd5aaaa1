package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.server.GantryTestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wizard suggests, for its data source and SSH identity name fields, exactly the names of the
 * server's configuration that the signed-in user may use: names only, never a URL or a secret.
 */
class WizardCredentialNamesTest {
  @TempDir static Path dir;
  static GantryTestServer server;

  @BeforeAll
  static void startServer() throws Exception {
    Path secret = Files.writeString(dir.resolve("identity.password"), "not a real password");
    server =
        WebTestServer.start(
            dir,
            Map.ofEntries(
                Map.entry("datasource.alice-risk.url", "jdbc:h2:mem:alice-risk"),
                Map.entry("datasource.alice-risk.user", "alice_reader"),
                Map.entry("datasource.alice-risk.users", "alice"),
                Map.entry("datasource.bob-risk.url", "jdbc:h2:mem:bob-risk"),
                Map.entry("datasource.bob-risk.users", "bob"),
                Map.entry("datasource.shared-risk.url", "jdbc:h2:mem:shared-risk"),
                Map.entry("identity.alice-cluster.password-file", secret.toString()),
                Map.entry("identity.alice-cluster.users", "alice admin"),
                Map.entry("identity.bob-cluster.password-file", secret.toString()),
                Map.entry("identity.bob-cluster.users", "bob")));
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  /** Alice or Bob, logged in, with the wizard's CSRF token at hand. */
  private static final class Visitor {
    final WebVisitor web;
    final String csrf;

    Visitor(String user) throws Exception {
      web = new WebVisitor(server);
      assertEquals(302, web.logIn(user).statusCode());
      csrf = WebVisitor.token(web.get("/wizard").body());
    }

    /** The pre-staging step with one SQL and one scp stage, so that both name fields show. */
    String preStagingWithBothKinds() throws Exception {
      assertEquals(
          302, web.post("/wizard", "csrf=" + csrf + "&step=pre-staging&go=add:sql").statusCode());
      assertEquals(
          302, web.post("/wizard", "csrf=" + csrf + "&step=pre-staging&go=add:scp").statusCode());
      HttpResponse<String> page = web.get("/wizard?step=pre-staging");
      assertEquals(200, page.statusCode());
      return page.body();
    }
  }

  /** The options of one datalist of the page. */
  private static List<String> options(String page, String list) {
    Matcher block =
        Pattern.compile("<datalist id=\"" + list + "\">(.*?)</datalist>", Pattern.DOTALL)
            .matcher(page);
    assertTrue(block.find(), "the page has the datalist " + list);
    Matcher option = Pattern.compile("<option value=\"([^\"]*)\"").matcher(block.group(1));
    List<String> values = new ArrayList<>();
    while (option.find()) {
      values.add(option.group(1));
    }
    return values;
  }

  @Test
  void aUserIsOfferedOnlyTheNamesTheyMayUse() throws Exception {
    String alice = new Visitor(WebTestServer.ALICE).preStagingWithBothKinds();
    assertEquals(
        List.of("alice-risk", "demo-market", "shared-risk"), options(alice, "data-source-names"));
    assertEquals(List.of("alice-cluster", "demo-remote"), options(alice, "ssh-identity-names"));
    assertTrue(
        alice.contains("list=\"data-source-names\"")
            && alice.contains("list=\"ssh-identity-names\""),
        "the name fields use the lists");
    assertTrue(
        alice.contains("yours: alice-risk, demo-market, shared-risk"), "the hint names them too");

    String bob = new Visitor(WebTestServer.BOB).preStagingWithBothKinds();
    assertEquals(
        List.of("bob-risk", "demo-market", "shared-risk"), options(bob, "data-source-names"));
    assertEquals(List.of("bob-cluster", "demo-remote"), options(bob, "ssh-identity-names"));
    assertFalse(bob.contains("alice-risk") || bob.contains("alice-cluster"), "nothing of alice's");
  }

  @Test
  void noUrlUserOrSecretOfADataSourceReachesThePage() throws Exception {
    String page = new Visitor(WebTestServer.ALICE).preStagingWithBothKinds();
    assertFalse(page.contains("jdbc:"), "no JDBC URL");
    assertFalse(page.contains("alice_reader"), "no database user");
    assertFalse(
        page.contains("not a real password") || page.contains("identity.password"),
        "no secret, no file");
  }
}
