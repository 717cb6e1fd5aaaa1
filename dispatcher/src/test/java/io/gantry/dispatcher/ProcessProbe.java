package io.gantry.dispatcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Looks at real processes and files from tests: /proc command lines, waiting for output. */
final class ProcessProbe {
  private ProcessProbe() {}

  /** The process's argv as the kernel shows it to every local user; empty if it is gone. */
  static List<String> commandLine(ProcessHandle process) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
      String text = new String(raw, StandardCharsets.UTF_8);
      return text.isEmpty() ? List.of() : List.of(text.split("\0"));
    } catch (IOException e) {
      return List.of();
    }
  }

  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
