package io.gantry.server.internal.scheduler;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.PosixLauncher;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A pipeline for scheduler tests whose jobs are described by a small script in the job description:
 * {@code slots=N, stage-in=ok|fail|wait|none;run=<sh command>, stage-out=ok|fail, wall=S}, one a
 * line. Programs run for real through the dispatcher's {@link PosixLauncher}; "wait" holds stage-in
 * until the test releases it, which is how tests make staging overlap a running job.
 */
final class ScriptedPipeline implements JobPipeline<ScriptedPipeline.Plan>, AutoCloseable {
  private final Path root;
  private final PosixLauncher launcher =
      new PosixLauncher(DispatcherConfig.defaults().withKillGracePeriod(Duration.ofSeconds(2)));
  final Map<JobId, CountDownLatch> stagingGates = new ConcurrentHashMap<>();
  final Map<JobId, Long> stagedAtNanos = new ConcurrentHashMap<>();
  final Map<JobId, Integer> stageOutRuns = new ConcurrentHashMap<>();

  record Plan(JobId jobId, int slots, Map<String, String> script) implements JobPlan {
    /** {@code stage-in=none}: a job with nothing to stage in. */
    @Override
    public boolean stagesIn() {
      return !"none".equals(script.get("stage-in"));
    }
  }

  ScriptedPipeline(Path root) {
    this.root = root;
  }

  /** The description for a job with these settings. */
  static String script(int slots, String stageIn, String run, String stageOut) {
    return "slots=" + slots + "\nstage-in=" + stageIn + "\nrun=" + run + "\nstage-out=" + stageOut;
  }

  @Override
  public Plan plan(JobRecord job, String description) {
    return plan(job.id(), description);
  }

  Plan plan(JobId id, String description) {
    Map<String, String> script = new ConcurrentHashMap<>();
    for (String part : description.split("\n")) {
      int eq = part.indexOf('=');
      script.put(part.substring(0, eq), part.substring(eq + 1));
    }
    return new Plan(id, Integer.parseInt(script.get("slots")), script);
  }

  @Override
  public void stageIn(Plan plan, PhaseProgress progress) throws JobFailure, InterruptedException {
    progress.report("stage-in: group 1 of 1");
    switch (plan.script().get("stage-in")) {
      case "fail" ->
          throw new JobFailure(
              "SQL extract to x.csv (group 1) failed on data source 'db': no such table");
      case "wait" -> stagingGates.computeIfAbsent(plan.jobId(), k -> new CountDownLatch(1)).await();
      default -> {}
    }
    stagedAtNanos.put(plan.jobId(), System.nanoTime());
  }

  @Override
  public RunningJob launch(Plan plan) throws JobFailure {
    Path dir = root.resolve(plan.jobId().toString());
    try {
      java.nio.file.Files.createDirectories(dir);
      // sandboxed like every job, under a test account (scripts/create-test-accounts)
      io.gantry.dispatcher.JobAccount account =
          io.gantry.dispatcher.OsAccounts.lookup("gantry-test-alice");
      java.nio.file.Files.setAttribute(dir, "unix:uid", account.uid());
      LaunchSpec.Builder spec =
          LaunchSpec.builder(plan.jobId().toString(), ProgramKind.POSIX, "/bin/sh")
              .arguments("-c", plan.script().get("run"))
              .workingDirectory(dir)
              .account(account)
              .output(dir.resolve("stdout"), dir.resolve("stderr"));
      if (plan.script().containsKey("wall")) {
        spec.wallTimeLimit(Duration.ofSeconds(Long.parseLong(plan.script().get("wall"))));
      }
      return launcher.launch(spec.build());
    } catch (LaunchException | java.io.IOException e) {
      throw new JobFailure(e.getMessage(), e);
    }
  }

  @Override
  public void stageOut(Plan plan, PhaseProgress progress) throws JobFailure {
    stageOutRuns.merge(plan.jobId(), 1, Integer::sum);
    if ("fail".equals(plan.script().get("stage-out"))) {
      throw new JobFailure(
          "SQL load of var_summary.csv (group 1) failed on data source 'db': duplicate key");
    }
  }

  @Override
  public void close() {
    launcher.close();
  }
}
