package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Starts a launcher's prepared command and supervises it: as the server's child ({@link
 * ProcessSupervisor}), or under a {@code gantry-stepd} that outlives the server ({@link
 * StepdSupervisor}), as the dispatcher's configuration says.
 */
public interface JobStarter extends AutoCloseable {

  /**
   * Starts {@code argv} with exactly {@code environment}, in the job's working directory, standard
   * output and error to the job's files, standard input empty.
   *
   * @param wallTimeGrace SIGTERM-to-SIGKILL grace when the wall-time limit runs out, for leftovers
   *     and for kill requests
   * @param wrapperDepth how many levels of the tree, from the started process down, are the
   *     launcher's own wrappers (the sandbox): they get no SIGTERM, only the final SIGKILL
   */
  RunningJob start(
      LaunchSpec spec,
      List<String> argv,
      Map<String, String> environment,
      Duration wallTimeGrace,
      int wrapperDepth)
      throws LaunchException;

  /** Refuses new launches; jobs already running stay supervised. */
  @Override
  void close();

  /** The starter {@code config} asks for. */
  static JobStarter of(DispatcherConfig config) {
    return config.detached() == null
        ? new ProcessSupervisor()
        : new StepdSupervisor(config.detached());
  }
}
