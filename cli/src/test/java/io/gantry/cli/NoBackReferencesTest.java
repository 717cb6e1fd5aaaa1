package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * No subcommand reaches back up to {@link GantryCommand}: exit codes are {@link ExitCodes}', the
 * global options and the connection {@link Invocation}'s. Checked on the compiled classes (every
 * subcommand at every level and the classes it extends), where a reference to a class is its name
 * in the class file's constant pool; comments do not count.
 */
class NoBackReferencesTest {
  private static final String TOP = "io/gantry/cli/GantryCommand";

  @Test
  void noSubcommandDependsOnGantryCommand() throws IOException {
    Set<Class<?>> checked = new LinkedHashSet<>();
    collect(GantryCommand.commandLine(Map.of(), Optional.empty()), checked);
    checked.remove(GantryCommand.class);
    assertTrue(checked.size() > 30, "too few subcommands found: " + checked);
    for (Class<?> subcommand : checked) {
      assertFalse(refersTo(subcommand, TOP), subcommand.getName() + " refers to GantryCommand");
    }
  }

  @Test
  void theCheckSeesAReference() throws IOException {
    // the agent builds the top command: a class that does refer to it is seen
    assertTrue(refersTo(CommandAgent.class, TOP));
  }

  private static void collect(CommandLine command, Set<Class<?>> into) {
    for (Class<?> c = command.getCommand().getClass();
        c != null && c.getPackageName().equals("io.gantry.cli");
        c = c.getSuperclass()) {
      into.add(c);
    }
    command.getSubcommands().values().forEach(sub -> collect(sub, into));
  }

  /**
   * Whether {@code type}'s class file names {@code internalName} (as a class or in a descriptor).
   */
  private static boolean refersTo(Class<?> type, String internalName) throws IOException {
    String resource = "/" + type.getName().replace('.', '/') + ".class";
    byte[] bytes;
    try (InputStream in = type.getResourceAsStream(resource)) {
      bytes = in.readAllBytes();
    }
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    for (int at = text.indexOf(internalName); at >= 0; at = text.indexOf(internalName, at + 1)) {
      int next = at + internalName.length();
      if (next == text.length() || !Character.isJavaIdentifierPart(text.charAt(next))) {
        return true;
      }
    }
    return false;
  }
}
