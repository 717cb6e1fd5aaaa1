package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.StageOutLedgerDdl;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code gantry-server ledger-ddl}: the ledger's DDL and grants, printed for a DBA. */
class LedgerDdlCommandTest {
  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int code = new CommandLine(new GantryServerCommand()).execute(args);
      return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void printsTheTableTheGatewayCreatesAndAGrantForEachStageOutUser() {
    Run r =
        run(
            "ledger-ddl",
            "--dialect",
            "postgresql",
            "--grant-to",
            "var_results_writer",
            "--grant-to",
            "desk_b");
    assertEquals(0, r.code(), r.err());
    assertEquals(
        StageOutLedgerDdl.script(
            StageOutLedgerDdl.Dialect.POSTGRESQL, List.of("var_results_writer", "desk_b")),
        r.out());
    assertTrue(r.out().contains(StageOutLedgerDdl.CREATE_TABLE + ";"), r.out());
    assertTrue(
        r.out().contains("GRANT SELECT, INSERT ON gantry_stage_out_ledger TO var_results_writer;"),
        r.out());
    assertTrue(
        r.out().contains("GRANT SELECT, INSERT ON gantry_stage_out_ledger TO desk_b;"), r.out());
  }

  @Test
  void withoutUsersTheGrantIsLeftToFillIn() {
    Run r = run("ledger-ddl", "--dialect", "h2");
    assertEquals(0, r.code(), r.err());
    assertTrue(
        r.out().contains("-- GRANT SELECT, INSERT ON gantry_stage_out_ledger TO stage_out_user;"),
        r.out());
    assertTrue(!r.out().contains("REVOKE"), "H2 grants nothing to PUBLIC by itself: " + r.out());
  }

  @Test
  void anUnknownDialectOrAUserNameThatIsNotPlainIsAUsageError() {
    Run dialect = run("ledger-ddl", "--dialect", "oracle");
    assertEquals(2, dialect.code());
    assertTrue(
        dialect.err().contains("unknown dialect 'oracle'; use postgresql or h2"), dialect.err());
    Run user = run("ledger-ddl", "--grant-to", "x; DROP TABLE t");
    assertEquals(2, user.code());
    assertTrue(user.err().contains("is not a plain SQL user name"), user.err());
  }
}
