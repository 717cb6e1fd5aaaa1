package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every command's --help formats cleanly: picocli warns on System.err when a text does not. */
class HelpTextTest {
  private static final GantryRun GANTRY =
      new GantryRun(
          List.of(),
          Map.of(LoginFile.VARIABLE, GantryRun.NO_LOGIN_FILE.toString()),
          Optional.empty());

  /** Runs {@code args} with System.err captured too, where picocli's own warnings go. */
  private static String[] helpAndWarnings(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
      Result result = GANTRY.run(args);
      assertEquals(0, result.exitCode(), result.toString());
      return new String[] {result.out(), warnings.toString(StandardCharsets.UTF_8) + result.err()};
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void encryptPasswordHelpShowsThePrintfExampleWithoutAPicocliWarning() {
    String[] help = helpAndWarnings("encrypt-password", "--help");
    assertFalse(help[1].contains("picocli WARN"), help[1]);
    assertTrue(
        help[0].contains("printf '%s\\n' \"$DB_PASSWORD\" | gantry --quiet encrypt-password"),
        help[0]);
  }

  @Test
  void noCommandsHelpMakesPicocliWarn() {
    for (String command :
        GantryCommand.commandLine(Map.of(), Optional.empty()).getSubcommands().keySet()) {
      String[] help = helpAndWarnings(command, "--help");
      assertFalse(help[1].contains("picocli WARN"), command + ": " + help[1]);
      assertTrue(help[0].contains("Usage: gantry " + command), command + ": " + help[0]);
    }
  }

  @Test
  void holdAndReleaseHelpReadAsSentences() {
    for (String command : List.of("hold", "release")) {
      String help = helpAndWarnings(command, "--help")[0];
      assertFalse(help.contains(".:"), command + ": " + help);
    }
    assertTrue(
        helpAndWarnings("hold", "--help")[0].contains(
            "Hold a QUEUED job whose stage-in has not begun: it waits"));
  }
}
