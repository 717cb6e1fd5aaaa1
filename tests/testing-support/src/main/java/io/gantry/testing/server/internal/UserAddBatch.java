package io.gantry.testing.server.internal;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The main class that adds a test server's accounts in one JVM: {@code gantry-server user add}, the
 * operator's own command, run once per account as an operator runs it, each with its password on
 * standard input. A JVM of its own per account cost a JVM start and a job store opened from nothing
 * each (some four seconds of CPU), for a hundred accounts in a test run.
 *
 * <p>Standard input holds, per account, a line of {@code user add}'s arguments separated by tabs,
 * then a line with the password. Before each account it prints {@code adding NAME}; a command that
 * fails exits this JVM with its exit code (gantry-server's {@code main} does), its message on
 * standard error.
 */
public final class UserAddBatch {
  private UserAddBatch() {}

  public static void main(String[] args) throws Throwable {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    List<String[]> commands = new ArrayList<>();
    List<String> passwords = new ArrayList<>();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      commands.add(line.split("\t"));
      String password = in.readLine();
      if (password == null) {
        throw new IllegalArgumentException("no password after " + line);
      }
      passwords.add(password);
    }
    Method main = Class.forName(ServerJvm.MAIN).getMethod("main", String[].class);
    for (int i = 0; i < commands.size(); i++) {
      String[] command = commands.get(i);
      System.out.println("adding " + Arrays.asList(command));
      System.setIn(
          new ByteArrayInputStream((passwords.get(i) + "\n").getBytes(StandardCharsets.UTF_8)));
      try {
        main.invoke(null, (Object) command);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  /** The standard input for {@link #main}: each command's arguments, then its password. */
  static String input(List<List<String>> commands, List<String> passwords) throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < commands.size(); i++) {
      for (String argument : commands.get(i)) {
        if (argument.contains("\t") || argument.contains("\n")) {
          throw new IOException("an argument with a tab or line break: " + argument);
        }
      }
      text.append(String.join("\t", commands.get(i))).append('\n');
      text.append(passwords.get(i)).append('\n');
    }
    return text.toString();
  }
}
