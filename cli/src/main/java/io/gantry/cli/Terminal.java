package io.gantry.cli;

import java.io.Console;
import java.util.Optional;

/**
 * The user's terminal, for what only a person at it may answer: whether to trust a server's
 * certificate, and a password typed without echo. Absent when standard input or output is not a
 * terminal (a pipe, a script, CI), so that such runs never wait for an answer nobody gives. Tests
 * give a scripted one.
 */
interface Terminal {
  /** The answer typed after {@code prompt}, or null at end of input. */
  String readLine(String prompt);

  /** A password typed after {@code prompt} without echo, or null at end of input. */
  char[] readPassword(String prompt);

  /** System.console(), which Java gives only when both standard input and output are a terminal. */
  static Optional<Terminal> ofSystemConsole() {
    Console console = System.console();
    if (console == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Terminal() {
          @Override
          public String readLine(String prompt) {
            // the prompt is passed as an argument, never as the format: it may contain a '%'
            return console.readLine("%s", prompt);
          }

          @Override
          public char[] readPassword(String prompt) {
            return console.readPassword("%s", prompt);
          }
        });
  }
}
