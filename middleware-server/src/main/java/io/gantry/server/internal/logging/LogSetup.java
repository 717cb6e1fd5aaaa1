package io.gantry.server.internal.logging;

import io.gantry.server.config.ServerConfig;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@code log.*} settings when the server starts. The console's text form comes from
 * {@code logback.xml} before any setting is read (so a configuration error is logged too); this
 * turns it to JSON or off, and adds the rolling file.
 */
public final class LogSetup {
  private static final String LOGBACK = "ch.qos.logback.classic.LoggerContext";

  private LogSetup() {}

  /**
   * @throws IllegalStateException if the log file cannot be opened, or the settings ask for more
   *     than the console text of another SLF4J provider (the CLI's tests run the server on
   *     slf4j-simple)
   */
  public static void apply(ServerConfig.Logging logging) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (factory.getClass().getName().equals(LOGBACK)) {
      LogbackOutputs.apply(factory, logging);
    } else if (logging.file().isPresent() || !logging.console().equals("text")) {
      throw new IllegalStateException(
          "the log.* settings need Logback (logback-classic) on the class path; it has "
              + factory.getClass().getName());
    }
  }
}
