package io.gantry.server.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a configured secret lives: a file, an environment variable, or nowhere (none). */
public sealed interface PasswordSource {

  /** Reads the secret now; callers clear the array after use. */
  char[] read();

  record None() implements PasswordSource {
    @Override
    public char[] read() {
      return new char[0];
    }
  }

  record FromFile(Path file) implements PasswordSource {
    @Override
    public char[] read() {
      try {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return text.strip().toCharArray();
      } catch (IOException e) {
        throw new IllegalStateException(
            "cannot read password file " + file + ": " + e.getMessage());
      }
    }
  }

  record FromEnvironment(String variable) implements PasswordSource {
    @Override
    public char[] read() {
      String value = System.getenv(variable);
      if (value == null) {
        throw new IllegalStateException("environment variable " + variable + " is not set");
      }
      return value.toCharArray();
    }
  }
}
