package io.gantry.server.internal.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.NotifySubscription;
import io.gantry.server.internal.risk.LimitBreaches;
import io.gantry.server.internal.risk.RiskResults;
import io.gantry.staging.StageOutLedgerDdl;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.TestKeystore;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The VaR limit-breach event (docs/risk-view.md, "Limits"): a VaR job's figures in an H2 results
 * database with the demo's tables, read with an account that may only SELECT, one figure above its
 * limit and one below, published after the stage-out and delivered to the owner's standing
 * subscription on a real HTTPS receiver. One store, database and receiver for the class.
 */
class LimitBreachEventTest {
  private static final LocalDate DATE = LocalDate.of(2026, 11, 26);
  private static final String URL =
      "jdbc:h2:mem:limit-breach;DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=VALUE";

  @TempDir static Path dir;
  private static Connection results;
  private static JdbcJobStore store;
  private static HttpTestServer receiver;
  private static NotificationDelivery delivery;
  private static NamedDataSource source;

  @BeforeAll
  static void start() throws Exception {
    results = DriverManager.getConnection(URL, "sa", "");
    try (Statement s = results.createStatement();
        InputStream in = DemoMarket.class.getResourceAsStream("market-schema.sql")) {
      String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String sql : script.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
      s.execute(StageOutLedgerDdl.CREATE_TABLE);
      s.execute(DemoMarket.VAR_LIMIT_TABLE);
      s.execute("create user results_reader password 'reader secret'");
      s.execute(
          "grant select on table var_run, var_node_summary, gantry_stage_out_ledger, var_limit"
              + " to results_reader");
      s.execute(
          "insert into var_limit (node, confidence, var_limit, valid_from) values"
              + " ('BANK', 0.99, 1000000, DATE '2026-01-02'),"
              + " ('BANK/DESK', 0.99, 800000, DATE '2026-01-02')");
    }
    Path readerPassword = Files.writeString(dir.resolve("reader.password"), "reader secret");
    source =
        new NamedDataSource(
            "bank-results",
            URL,
            "sa",
            new PasswordSource.None(),
            Set.of("alice"),
            new NamedDataSource.Account(
                "results_reader", new PasswordSource.FromFile(readerPassword)));

    TestKeystore tls = TestKeystore.generate(dir);
    receiver = HttpTestServer.https(Files.createDirectories(dir.resolve("www")), tls);
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));
    delivery =
        new NotificationDelivery(
            store.outbox(),
            store,
            store.subscriptions(),
            new WebhookSender(
                List.of("127.0.0.1:" + receiver.port()),
                SigningKey.loadOrCreate(dir.resolve("notify-signing.key")),
                tls.trustStore(),
                Clock.systemUTC()),
            MailSender.disabled("https://gantry.example/services/JobManagement"),
            "https://gantry.example/services/JobManagement",
            Duration.ofHours(1),
            Duration.ofMillis(1),
            Clock.systemUTC());
  }

  @AfterAll
  static void stop() throws SQLException {
    receiver.close();
    store.close();
    results.close();
  }

  @Test
  void aBreachedFigureGivesOneEventToTheOwnersSubscriptionAndAFigureWithinItsLimitNone()
      throws Exception {
    String hook = receiver.base() + "/hooks/risk";
    store
        .subscriptions()
        .add(
            new NotifySubscription(
                JobId.random().value(),
                "alice",
                null,
                null,
                hook,
                List.of("var.limit-breached"),
                Instant.now()));
    JobRecord job =
        store.submit(
            "alice",
            "nightly-var",
            "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\">"
                + "<jsdl:JobDescription/></jsdl:JobDefinition>");
    String run = job.id().value();
    run(run, DATE);
    figure(run, DATE, "BANK", 1_250_000.5); // 125.00005 %: a breach
    figure(run, DATE, "BANK/DESK", 800_000); // 100 %: at the limit, no breach
    LimitBreaches breaches =
        new LimitBreaches(
            new RiskResults(Map.of("bank-results", source), List.of("bank-results")),
            store.outbox());

    assertEquals(1, breaches.stagedOut(job.id(), "alice"));
    assertEquals(0, breaches.stagedOut(job.id(), "alice"), "the stage-out done again");
    assertEquals(0, breaches.stagedOut(job.id(), "bob"), "bob may not use bank-results");
    for (int pass = 0; pass < 50 && store.outbox().backlog() > 0; pass++) {
      delivery.deliverDue();
    }

    List<HttpTestServer.Post> posts =
        receiver.posts().stream().filter(p -> p.path().equals("/hooks/risk")).toList();
    assertEquals(1, posts.size(), posts.toString());
    String body = posts.get(0).body();
    assertEquals("io.gantry.var.limit-breached", Receiver.member(body, "type"));
    assertEquals(run, Receiver.member(body, "subject"));
    Receiver.assertSigned(posts.get(0), dir.resolve("notify-signing.key"));
    assertTrue(
        body.contains(
            "\"data\":{\"jobId\":\""
                + run
                + "\",\"dataSource\":\"bank-results\",\"businessDate\":\"2026-11-26\","
                + "\"node\":\"BANK\",\"confidence\":0.99,\"method\":\"mc-normal\","
                + "\"var\":1250000.5,\"limit\":1000000.0,\"usagePercent\":125.00,"
                + "\"baseCurrency\":\"USD\",\"limitValidFrom\":\"2026-01-02\"}"),
        body);
  }

  @Test
  void aResultsDatabaseThatCannotBeReadGivesNoEventAndNoError() {
    // its WARN names the data source (LimitBreaches); the job's outcome is the pipeline's
    NamedDataSource unreadable =
        new NamedDataSource(
            "gone-results",
            URL,
            "nobody", // the database refuses the login
            new PasswordSource.None(),
            Set.of("alice"),
            null);
    LimitBreaches breaches =
        new LimitBreaches(
            new RiskResults(Map.of("gone-results", unreadable), List.of("gone-results")),
            store.outbox());
    long before = store.outbox().backlog();

    assertEquals(0, breaches.stagedOut(JobId.random(), "alice"));
    assertEquals(before, store.outbox().backlog());
  }

  private static void run(String runId, LocalDate date) throws SQLException {
    try (PreparedStatement ps =
        results.prepareStatement(
            "insert into var_run (run_id, business_date, method, horizon_days, scenarios, seed,"
                + " base_currency, confidence_levels, program_version)"
                + " values (?, ?, 'mc-normal', 1, 1000, 7, 'USD', '0.99', 'mcvar 2.0')")) {
      ps.setString(1, runId);
      ps.setObject(2, date);
      ps.executeUpdate();
    }
  }

  private static void figure(String runId, LocalDate date, String node, double var)
      throws SQLException {
    try (PreparedStatement ps =
        results.prepareStatement(
            "insert into var_node_summary (run_id, business_date, node, confidence, var,"
                + " expected_shortfall, pnl_mean, pnl_stddev, scenarios)"
                + " values (?, ?, ?, 0.99, ?, ?, 0, 1, 1000)")) {
      ps.setString(1, runId);
      ps.setObject(2, date);
      ps.setString(3, node);
      ps.setDouble(4, var);
      ps.setDouble(5, var * 1.2);
      ps.executeUpdate();
    }
  }
}
