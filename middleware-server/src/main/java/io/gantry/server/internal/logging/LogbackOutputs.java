package io.gantry.server.internal.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import io.gantry.server.config.ServerConfig;
import java.nio.file.Path;
import org.slf4j.ILoggerFactory;

/** The Logback half of {@link LogSetup}, loaded only where Logback is SLF4J's provider. */
final class LogbackOutputs {
  /** The console appender of {@code logback.xml}. */
  private static final String CONSOLE = "CONSOLE";

  /** logback.xml's pattern: time, level, thread, logger, the job and user when set, message. */
  private static final String TEXT =
      "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{0}"
          + "%replace( job=%X{jobId}){' job=$', ''}%replace( user=%X{user}){' user=$', ''}"
          + " - %msg%n";

  private LogbackOutputs() {}

  static void apply(ILoggerFactory factory, ServerConfig.Logging logging) {
    LoggerContext context = (LoggerContext) factory;
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    if (!logging.console().equals("text")) {
      Appender<ILoggingEvent> text = root.getAppender(CONSOLE);
      root.detachAppender(CONSOLE);
      if (text != null) {
        text.stop();
      }
      if (logging.console().equals("json")) {
        ConsoleAppender<ILoggingEvent> json = new ConsoleAppender<>();
        json.setContext(context);
        json.setName(CONSOLE);
        json.setTarget("System.err");
        json.setEncoder(encoder(context, "json"));
        json.start();
        root.addAppender(json);
      }
    }
    logging.file().ifPresent(file -> root.addAppender(file(context, file, logging)));
  }

  /**
   * A file rolled over at midnight and at the size limit into {@code FILE.YYYY-MM-DD.N.gz}; at each
   * rollover, files older than the kept days go, then the oldest until the rest fit the total.
   */
  private static Appender<ILoggingEvent> file(
      LoggerContext context, Path file, ServerConfig.Logging logging) {
    RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
    appender.setContext(context);
    appender.setName("FILE");
    appender.setFile(file.toString());
    SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
    policy.setContext(context);
    policy.setParent(appender);
    policy.setFileNamePattern(file + ".%d{yyyy-MM-dd}.%i.gz");
    policy.setMaxFileSize(new FileSize(logging.maxFileSize()));
    policy.setMaxHistory(logging.maxHistoryDays());
    policy.setTotalSizeCap(new FileSize(logging.totalSizeCap()));
    policy.start();
    appender.setRollingPolicy(policy);
    appender.setEncoder(encoder(context, logging.fileFormat()));
    appender.start();
    if (!policy.isStarted() || !appender.isStarted()) {
      // Logback keeps why in its status list, which nothing prints when configured in code
      String why =
          context.getStatusManager().getCopyOfStatusList().stream()
              .filter(status -> status.getLevel() == Status.ERROR)
              .map(Status::getMessage)
              .reduce((first, last) -> last)
              .orElse("it did not open");
      throw new IllegalStateException("cannot write the log file " + file + " (log.file): " + why);
    }
    return appender;
  }

  private static Encoder<ILoggingEvent> encoder(LoggerContext context, String format) {
    Encoder<ILoggingEvent> encoder;
    if (format.equals("json")) {
      // one object a line: time (ms since the epoch), level, thread, logger, the MDC's job and
      // user, the message with its arguments filled in, and a throwable's class, message and frames
      JsonEncoder json = new JsonEncoder();
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.setWithContext(false);
      json.setWithMessage(false);
      json.setWithArguments(false);
      json.setWithFormattedMessage(true);
      encoder = json;
    } else {
      PatternLayoutEncoder text = new PatternLayoutEncoder();
      text.setPattern(TEXT);
      encoder = text;
    }
    encoder.setContext(context);
    encoder.start();
    return encoder;
  }
}
