package io.gantry.staging.bench;

import java.io.IOException;
import java.nio.file.Path;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * A JFR recording of the benchmark's timed JDBC-path extracts alone (not the COPY path, psql or the
 * warm-up), when {@code GANTRY_BENCH_JFR} names the file to write; summarise it with {@code jfr
 * print --events jdk.ExecutionSample FILE}.
 */
final class JdbcPathProfile implements AutoCloseable {
  private final Recording recording;
  private final Path file;

  private JdbcPathProfile(Recording recording, Path file) {
    this.recording = recording;
    this.file = file;
  }

  static JdbcPathProfile startIfAsked() throws IOException, java.text.ParseException {
    String name = System.getenv("GANTRY_BENCH_JFR");
    if (name == null || name.isEmpty()) {
      return new JdbcPathProfile(null, null);
    }
    Recording recording = new Recording(Configuration.getConfiguration("profile"));
    // a sample every millisecond: a few extracts of a few seconds give thousands of samples
    JdbcPathProfile profile = new JdbcPathProfile(recording, Path.of(name).toAbsolutePath());
    profile.resume();
    recording.start();
    return profile;
  }

  /** Stops sampling while psql runs between the JDBC path's runs (JFR has no pause: a gap). */
  void pause() {
    if (recording != null) {
      recording.disable("jdk.ExecutionSample");
      recording.disable("jdk.NativeMethodSample");
    }
  }

  void resume() {
    if (recording != null) {
      recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
      recording.enable("jdk.NativeMethodSample").withPeriod(java.time.Duration.ofMillis(1));
    }
  }

  @Override
  public void close() throws IOException {
    if (recording != null) {
      recording.stop();
      recording.dump(file);
      recording.close();
      System.out.println("jdbc_path_profile: " + file);
    }
  }
}
