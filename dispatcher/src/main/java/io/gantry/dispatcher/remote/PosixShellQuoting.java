package io.gantry.dispatcher.remote;

import java.util.List;

/**
 * The one place an argument array becomes a command line, for the one case where a shell cannot be
 * avoided: an SSH exec request carries a single string, which sshd hands to the remote account's
 * login shell ({@code $SHELL -c STRING}).
 *
 * <p>Each argument is wrapped in POSIX single quotes ({@code 'text'}), inside which a POSIX shell
 * gives no character a special meaning (no {@code $}, backtick, backslash, glob or newline
 * processing); a single quote itself ends the quoting, adds an escaped quote and reopens it ({@code
 * '\''}). So every argument reaches the program as exactly one argument with exactly its text, and
 * none is ever read as shell syntax (POSIX.1-2017, XCU 2.2.2 "Single-Quotes").
 *
 * <p>Refused, with the argument's position: a NUL character (no argument can carry one: C strings
 * end there) and text that has no UTF-8 form (an unpaired UTF-16 surrogate), which would reach the
 * remote side as something other than what was asked for. A leading '-' is quoted like any other
 * character: whether a program reads it as an option is the program's affair, which is why callers
 * put {@code --} before operands taken from a job.
 *
 * <p>The remote login shell must be a POSIX shell (sh, bash, dash, ksh, zsh); csh and fish quote
 * differently and are not supported (docs/security.md).
 */
public final class PosixShellQuoting {
  private PosixShellQuoting() {}

  /** One argument, single-quoted. */
  public static String quote(String argument) {
    return quote(argument, 0);
  }

  /** The whole argument array as one command line: each argument quoted, separated by spaces. */
  public static String commandLine(List<String> argv) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least the program's name");
    }
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < argv.size(); i++) {
      if (i > 0) {
        line.append(' ');
      }
      line.append(quote(argv.get(i), i));
    }
    return line.toString();
  }

  private static String quote(String argument, int position) {
    if (argument == null) {
      throw new IllegalArgumentException("argument " + position + " is missing (null)");
    }
    StringBuilder quoted = new StringBuilder(argument.length() + 2).append('\'');
    for (int i = 0; i < argument.length(); i++) {
      char c = argument.charAt(i);
      if (c == '\0') {
        throw new IllegalArgumentException(
            "argument " + position + " contains a NUL character at offset " + i);
      }
      if (Character.isHighSurrogate(c)
          && (i + 1 == argument.length() || !Character.isLowSurrogate(argument.charAt(i + 1)))) {
        throw unpaired(position, i);
      }
      if (Character.isLowSurrogate(c)
          && (i == 0 || !Character.isHighSurrogate(argument.charAt(i - 1)))) {
        throw unpaired(position, i);
      }
      if (c == '\'') {
        quoted.append("'\\''");
      } else {
        quoted.append(c);
      }
    }
    return quoted.append('\'').toString();
  }

  private static IllegalArgumentException unpaired(int position, int offset) {
    return new IllegalArgumentException(
        "argument "
            + position
            + " has no UTF-8 form (an unpaired UTF-16 surrogate at offset "
            + offset
            + ")");
  }
}
