package io.gantry.dispatcher.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every hostile argument goes through a real shell (dash as sh, and bash, as sshd's {@code $SHELL
 * -c} would run it) and must come out as exactly one argument with exactly its text.
 */
class PosixShellQuotingTest {
  private static final List<String> HOSTILE =
      List.of(
          "",
          "plain",
          "two words",
          "it's",
          "''",
          "'\\''",
          "\"double\"",
          "line one\nline two\n",
          "\r\t\u000b\f",
          "$(touch PWNED)",
          "`touch PWNED`",
          "${HOME}",
          "$HOME",
          "$((1+1))",
          "a;touch PWNED",
          "a && touch PWNED || true",
          "a | touch PWNED",
          "> PWNED",
          "< /etc/passwd",
          "*",
          "/*/*",
          "?",
          "[a-z]*",
          "{a,b}",
          "~",
          "~root",
          "-rf",
          "--",
          "-",
          "--help",
          "\\",
          "trailing backslash\\",
          "!!",
          "#comment",
          "é ü 漢字 😀",
          "\u0001\u001f\u007f");

  @TempDir Path work;

  @Test
  void everyHostileArgumentArrivesAsItselfThroughSh() throws Exception {
    assertEquals(HOSTILE, throughShell("sh", HOSTILE));
    assertTrue(noFilePlanted(), "an argument ran as shell syntax");
  }

  @Test
  void everyHostileArgumentArrivesAsItselfThroughBash() throws Exception {
    assertEquals(HOSTILE, throughShell("bash", HOSTILE));
    assertTrue(noFilePlanted(), "an argument ran as shell syntax");
  }

  @Test
  void eachArgumentIsOneArgumentAlsoWhenThereAreMany() throws Exception {
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      many.add(HOSTILE.get(i % HOSTILE.size()) + i);
    }
    assertEquals(many, throughShell("sh", many));
  }

  @Test
  void anEmptyArgumentIsKeptAsAnEmptyArgument() {
    assertEquals("''", PosixShellQuoting.quote(""));
    assertEquals("'a' '' 'b'", PosixShellQuoting.commandLine(List.of("a", "", "b")));
  }

  @Test
  void aSingleQuoteClosesEscapesAndReopens() {
    assertEquals("'it'\\''s'", PosixShellQuoting.quote("it's"));
  }

  @Test
  void aNulCharacterIsRefusedNamingTheArgument() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PosixShellQuoting.commandLine(List.of("echo", "ok", "a\0b")));
    assertTrue(e.getMessage().contains("argument 2"), e.getMessage());
    assertTrue(e.getMessage().contains("NUL"), e.getMessage());
  }

  @Test
  void textWithoutAUtf8FormIsRefused() {
    for (String bad : List.of("\ud800", "a\udc00b", "x\ud83d")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> PosixShellQuoting.commandLine(List.of("echo", bad)));
      assertTrue(e.getMessage().contains("no UTF-8 form"), e.getMessage());
    }
  }

  @Test
  void aMissingArgumentOrAnEmptyCommandIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> PosixShellQuoting.commandLine(Arrays.asList("echo", null)));
    assertThrows(IllegalArgumentException.class, () -> PosixShellQuoting.commandLine(List.of()));
  }

  private List<String> throughShell(String shell, List<String> args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("printf", "%s\\0"));
    argv.addAll(args);
    Process p =
        new ProcessBuilder(shell, "-c", PosixShellQuoting.commandLine(argv))
            .directory(work.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue());
    List<String> got = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < out.length; i++) {
      if (out[i] == 0) {
        got.add(new String(out, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    return got;
  }

  private boolean noFilePlanted() throws Exception {
    try (var files = Files.list(work)) {
      return files.findAny().isEmpty();
    }
  }
}
