package io.gantry.server.internal.taskfarm;

import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.FarmJournal;
import io.gantry.dispatcher.farm.FarmOptions;
import io.gantry.dispatcher.farm.FarmResultsCsv;
import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.jsdl.farm.TaskFarmSpec;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.plan.JsdlJobPlan;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs task-farm jobs: for each, a {@link FarmDispatcher} for the job's lifetime and the job's
 * launchers started through the compute backend.
 *
 * <ol>
 *   <li>The tasks are made (a sweep's from the description, a task file's from the staged CSV),
 *       numbered 1, 2, ...; the same job always makes the same tasks in the same order.
 *   <li>The journal lives on the server's side of the staging root ({@code .task-farms/ID.journal},
 *       owner-only), out of reach of the job's own programs; a restarted server opens it again and
 *       hands out only what it does not hold.
 *   <li>The dispatcher listens on {@code farm.dispatcher-host}, port chosen by the system; the
 *       launchers get its address and a fresh secret in their environment, never as arguments.
 *   <li>The result CSV is written on the server's side and renamed into the job directory, so a
 *       link the job planted under its name is replaced, never followed.
 * </ol>
 */
public final class TaskFarmRunner implements AutoCloseable {
  public static final String ADDRESS_VARIABLE = "GANTRY_FARM_DISPATCHER";
  public static final String SECRET_VARIABLE = "GANTRY_FARM_SECRET";
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(TaskFarmRunner.class);

  /** Starts the launchers through the job's compute backend. */
  public interface Start {
    RunningJob start(LaunchSpec spec) throws LaunchException, JobFailure;
  }

  private final Path stateDirectory;
  private final ServerConfig.TaskFarms settings;
  private final JobStore store;
  private final Duration killGrace;
  private final Map<JobId, FarmDispatcher> running = new ConcurrentHashMap<>();
  private final ScheduledExecutorService progress =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-farm-progress");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param stagingRoot the staging root; the farms' journals go to its {@code .task-farms}
   * @param settings the address dispatchers listen on and launchers connect to, the most tasks of
   *     one farm (a task file's rows), and what a dispatcher lets in before a HELLO
   */
  @SuppressWarnings("FutureReturnValueIgnored") // a periodic task: its failures are logged in it
  public TaskFarmRunner(
      Path stagingRoot, ServerConfig.TaskFarms settings, JobStore store, Duration killGrace) {
    this.stateDirectory = stagingRoot.resolve(".task-farms");
    this.settings = settings;
    this.store = store;
    this.killGrace = killGrace;
    progress.scheduleWithFixedDelay(this::reportProgress, 1, 1, TimeUnit.SECONDS);
  }

  /** Starts (or, after a restart, resumes) the farm of {@code plan}. */
  public RunningJob launch(JsdlJobPlan plan, LaunchSpec launchers, Start start) throws JobFailure {
    TaskFarmSpec spec = plan.farm();
    List<FarmTask> tasks = TaskFarmTasks.of(spec, plan.jobDirectory(), settings.maxTasks());
    String secret = FarmDispatcher.newSecret();
    boolean fresh = !Files.exists(journal(plan.jobId()), LinkOption.NOFOLLOW_LINKS);
    FarmDispatcher dispatcher;
    try {
      Files.createDirectories(
          stateDirectory,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      FarmOptions options =
          new FarmOptions(
              spec.retries(),
              spec.taskWallTimeSeconds() > 0
                  ? Duration.ofSeconds(spec.taskWallTimeSeconds())
                  : null,
              spec.outputBytes(),
              settings.helloTimeout(),
              settings.maxUnauthenticated());
      dispatcher =
          FarmDispatcher.start(
              plan.jobId().toString(),
              new InetSocketAddress(settings.dispatcherHost(), 0),
              secret,
              tasks,
              launchers.processes(),
              options,
              journal(plan, spec, tasks, fresh));
    } catch (IOException e) {
      throw new JobFailure("cannot start the farm's dispatcher: " + e.getMessage(), e);
    }
    String address = hostPort(settings.dispatcherHost(), dispatcher.address().getPort());
    RunningJob started;
    try {
      started =
          start.start(
              launchers.withEnvironment(
                  Map.of(ADDRESS_VARIABLE, address, SECRET_VARIABLE, secret)));
    } catch (LaunchException | JobFailure | RuntimeException e) {
      closeQuietly(dispatcher);
      throw e instanceof JobFailure f ? f : new JobFailure(e.getMessage(), e);
    }
    running.put(plan.jobId(), dispatcher);
    LOG.info(
        "job {}: task farm of {} tasks ({} final already), {} launchers, dispatcher {}",
        plan.jobId(),
        tasks.size(),
        dispatcher.progress().finished(),
        launchers.processes(),
        address);
    return new FarmRunningJob(
        plan.jobId().toString(),
        dispatcher,
        started,
        killGrace,
        results -> writeResults(plan, spec, tasks, results),
        () -> running.remove(plan.jobId()));
  }

  /** Removes a final job's journal. */
  public void forget(JobId id) {
    try {
      Files.deleteIfExists(journal(id));
    } catch (IOException e) {
      LOG.warn("job {}: cannot remove the farm's journal: {}", id, e.toString());
    }
  }

  /**
   * The farm's journal; a fresh one of a rerun of failed tasks starts with the succeeded tasks it
   * carries over ({@link CarriedTasks}), so the dispatcher hands out only the others, as after a
   * restart.
   */
  private FarmJournal journal(
      JsdlJobPlan plan, TaskFarmSpec spec, List<FarmTask> tasks, boolean fresh)
      throws IOException, JobFailure {
    io.gantry.server.internal.jobstore.JobOrigin origin = store.origin(plan.jobId());
    List<io.gantry.dispatcher.farm.TaskResult> carried = List.of();
    if (fresh && origin.failedTasksOnly()) {
      JobId from = origin.resubmittedFrom();
      Path directory =
          store
              .plan(from)
              .map(io.gantry.server.internal.jobstore.StoredPlan::jobDirectory)
              .orElseThrow(
                  () ->
                      new JobFailure(
                          "job "
                              + from
                              + ", whose failed tasks this job"
                              + " reruns, has no stored plan"));
      try {
        carried = CarriedTasks.from(directory, spec.resultFileName(), spec.inputNames(), tasks);
      } catch (IOException e) {
        throw new JobFailure(
            "cannot carry over the succeeded tasks of job "
                + from
                + " ("
                + e.getMessage()
                + "); resubmit it whole instead",
            e);
      }
    }
    FarmJournal journal = FarmJournal.open(journal(plan.jobId()));
    if (!carried.isEmpty()) {
      journal.append(carried);
      journal.sync();
      LOG.info(
          "job {}: {} succeeded task(s) carried over from job {}",
          plan.jobId(),
          carried.size(),
          origin.resubmittedFrom());
    }
    return journal;
  }

  private Path journal(JobId id) {
    return stateDirectory.resolve(id + ".journal");
  }

  private void writeResults(
      JsdlJobPlan plan,
      TaskFarmSpec spec,
      List<FarmTask> tasks,
      Map<Long, io.gantry.dispatcher.farm.TaskResult> results)
      throws IOException {
    Path tmp = stateDirectory.resolve(plan.jobId() + ".results.tmp");
    try (Writer w =
        Files.newBufferedWriter(
            tmp,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS)) {
      FarmResultsCsv.write(w, spec.inputNames(), tasks, results);
    }
    Files.move(
        tmp,
        plan.jobDirectory().resolve(spec.resultFileName()),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  private void reportProgress() {
    running.forEach(
        (id, d) -> {
          try {
            store.updatePhaseDetail(id, JobState.RUNNING, d.progress().describe());
          } catch (RuntimeException e) {
            LOG.debug("job {}: progress not recorded: {}", id, e.toString());
          }
        });
  }

  private static String hostPort(String host, int port) {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }

  private static void closeQuietly(FarmDispatcher d) {
    try {
      d.close();
    } catch (IOException e) {
      LOG.warn("closing a farm's dispatcher: {}", e.toString());
    }
  }

  /** Stops every dispatcher (their launchers then end); the journals stay for the next start. */
  @Override
  public void close() {
    progress.shutdownNow();
    running.values().forEach(TaskFarmRunner::closeQuietly);
    running.clear();
  }
}
