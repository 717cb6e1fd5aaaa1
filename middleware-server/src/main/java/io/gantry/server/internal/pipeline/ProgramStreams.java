package io.gantry.server.internal.pipeline;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.plan.JsdlJobPlan;
import io.gantry.server.internal.plan.StreamedInput;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.AppendedFile;
import io.gantry.staging.Manifest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The streamed stage-ins of the jobs whose programs read them as they arrive ({@link StreamedFile}
 * each), between the end of the job's other stage-ins and the job's end.
 *
 * <ul>
 *   <li>A stream that fails (its producer ended FAILED, KILLED or CANCELLED, or the bytes the
 *       program read are not the staged file's) stops its job through {@link Stops} with the
 *       reason, which names the producer: a running program is terminated and the job FAILED with
 *       that reason; a job still waiting for slots fails when it would start.
 *   <li>The program's end, seen through {@link #following}: a program that succeeded waits for its
 *       streams to end (their manifests recorded), so the job never reaches stage-out before; any
 *       other end cuts them (follow and pump stop, spill removed). The producer is left running: it
 *       is a job of its own, whose output may serve other jobs and its own stage-out.
 * </ul>
 */
final class ProgramStreams implements AutoCloseable {
  /** Stops a job with a reason: the scheduler's stop (a running program terminated, FAILED). */
  @FunctionalInterface
  interface Stops {
    boolean stop(JobId job, String reason);
  }

  /** The file a program on a cluster follows, made there; empty where it is made here. */
  @FunctionalInterface
  interface Appended {
    Optional<AppendedFile> create(String name) throws IOException;
  }

  private final Map<JobId, JobStreams> jobs = new ConcurrentHashMap<>();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "gantry-stream");
            t.setDaemon(true);
            return t;
          });
  private volatile Stops stops = (job, reason) -> false;

  void stopWith(Stops stops) {
    this.stops = stops;
  }

  private static final class JobStreams {
    final List<StreamedFile> files = new ArrayList<>();
    volatile String failure;
  }

  /**
   * Opens every stream of {@code plan} (what the program reads, in its job directory, and a spill
   * directory under {@code spillRoot}) and starts following them.
   *
   * @param acrossHosts the program reads on another host, through the shared file system: each
   *     block appended to a growing file is made durable before the next
   * @param appended what the program reads at a staged name, where the server does not write it
   *     itself (a job directory on a cluster); empty: the job directory is on this host
   * @param follow the stage-in of one streamed transfer into a spill directory
   * @param recorded records a stream's manifest once it ended complete
   */
  void start(
      JsdlJobPlan plan,
      boolean acrossHosts,
      Path spillRoot,
      Appended appended,
      Function<StreamedInput, StreamedFile.Follow> follow,
      BiConsumer<JobId, Manifest> recorded)
      throws JobFailure {
    JobId id = plan.jobId();
    cut(id); // a stage-in run again starts afresh
    JobStreams streams = new JobStreams();
    int n = 0;
    try {
      for (StreamedInput input : plan.streams()) {
        Path spill = spillRoot.resolve(Integer.toString(++n));
        Optional<AppendedFile> remote = appended.create(input.transfer().fileName());
        streams.files.add(
            remote.isPresent()
                ? StreamedFile.appending(input, remote.get(), spill)
                : StreamedFile.open(input, plan.jobDirectory(), spill, acrossHosts));
      }
    } catch (IOException e) {
      streams.files.forEach(StreamedFile::cut);
      throw new JobFailure("cannot prepare a streamed input: " + e.getMessage(), e);
    }
    jobs.put(id, streams);
    Path jobSpill = spillRoot;
    CompletableFuture<Void> unused =
        CompletableFuture.allOf(
                streams.files.stream().map(StreamedFile::ended).toArray(CompletableFuture[]::new))
            .whenComplete(
                (v, e) -> {
                  try {
                    java.nio.file.Files.deleteIfExists(jobSpill); // each stream removed its own
                  } catch (IOException x) {
                    // not empty: a follow that did not stop left its copy, removed with the next
                  }
                });
    for (int i = 0; i < streams.files.size(); i++) {
      StreamedInput input = plan.streams().get(i);
      streams
          .files
          .get(i)
          .start(
              threads,
              follow.apply(input),
              manifest -> recorded.accept(id, manifest),
              reason -> failed(id, streams, reason));
    }
  }

  private void failed(JobId id, JobStreams streams, String reason) {
    if (streams.failure != null) {
      return;
    }
    streams.failure = reason;
    stops.stop(id, reason); // the program first: its input must not seem to end
    streams.files.forEach(StreamedFile::abandon); // one broken input: the others serve nothing
  }

  /** Why a stream of the job failed before its program started, if one did. */
  Optional<String> failure(JobId id) {
    JobStreams streams = jobs.get(id);
    return streams == null ? Optional.empty() : Optional.ofNullable(streams.failure);
  }

  boolean streams(JobId id) {
    return jobs.containsKey(id);
  }

  /**
   * {@code program}, whose end is reported once its streams have ended too: after a success they
   * run to their end, after any other end they are cut.
   */
  RunningJob following(JobId id, RunningJob program) {
    JobStreams streams = jobs.get(id);
    if (streams == null) {
      return program;
    }
    CompletableFuture<JobOutcome> end =
        program
            .onExit()
            .thenCompose(
                outcome -> {
                  if (outcome.succeeded()) {
                    streams.files.forEach(StreamedFile::programEnded);
                  } else {
                    streams.files.forEach(StreamedFile::cut);
                  }
                  return CompletableFuture.allOf(
                          streams.files.stream()
                              .map(StreamedFile::ended)
                              .toArray(CompletableFuture[]::new))
                      .handle((v, e) -> outcome);
                });
    return new RunningJob() {
      @Override
      public String jobId() {
        return program.jobId();
      }

      @Override
      public long pid() {
        return program.pid();
      }

      @Override
      public CompletableFuture<JobOutcome> onExit() {
        return end;
      }

      @Override
      public void terminate(Duration grace) {
        program.terminate(grace);
      }

      @Override
      public boolean outlivesServer() {
        return program.outlivesServer();
      }

      @Override
      public Optional<String> reattachReference() {
        return program.reattachReference();
      }
    };
  }

  /** Stops the job's streams, if any: it has ended. */
  void cut(JobId id) {
    JobStreams streams = jobs.remove(id);
    if (streams != null) {
      streams.files.forEach(StreamedFile::cut);
    }
  }

  @Override
  public void close() {
    jobs.keySet().forEach(this::cut);
    threads.shutdownNow();
  }
}
