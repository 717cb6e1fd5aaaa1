package io.gantry.server.bench;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.MpirunCommand;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.server.api.AuditEntry;
import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.TestJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The middleware's own cost for a trivial job: submit to SUCCEEDED for {@code /bin/true} through
 * {@code mpirun -np 1}, minus what the same mpirun command takes when started directly (the same
 * argument array and environment the dispatcher builds). Medians of several runs, one job at a time
 * on an otherwise idle server.
 */
final class TrivialJobOverhead {
  record Result(
      double mpirunMillis,
      double submitToSucceededMillis,
      double serverRecordedMillis,
      double submittedToStartedMillis,
      double startedToFinishedMillis,
      double submitCallMillis,
      double callToSubmittedMillis,
      double finishedToSeenMillis,
      Map<String, Double> stepMillis) {
    double overheadMillis() {
      return submitToSucceededMillis - mpirunMillis;
    }
  }

  private final JobManagement client;
  private final Path workDir;

  /** The last job's audit trail: each entry's time since the one before, by the entry's name. */
  private Map<String, Long> lastSteps = Map.of();

  private final int warmUpJobs;

  /**
   * @param warmUpJobs jobs run before the measured ones (not measured): a server in service has its
   *     JIT's code for the submit and launch paths; a fresh one runs them interpreted at first
   */
  TrivialJobOverhead(JobManagement client, Path workDir, int warmUpJobs) {
    this.client = client;
    this.workDir = workDir;
    this.warmUpJobs = warmUpJobs;
  }

  Result run(int runs) throws Exception {
    long[] direct = new long[runs];
    long[] viaServer = new long[runs];
    long[] recorded = new long[runs];
    long[] toStart = new long[runs];
    long[] startToEnd = new long[runs];
    long[] submitCall = new long[runs];
    long[] callToSubmitted = new long[runs];
    long[] finishedToSeen = new long[runs];
    Map<String, long[]> steps = new TreeMap<>();
    directMpirun(); // warm the file cache and Open MPI's first start
    // a server in service has run many requests: its JIT has compiled the submit and launch paths
    for (int i = 0; i < warmUpJobs; i++) {
      submitAndWait();
    }
    for (int i = 0; i < runs; i++) { // interleaved, so both see the same machine load
      direct[i] = directMpirun();
      long[] both = submitAndWait();
      viaServer[i] = both[0];
      recorded[i] = both[1];
      toStart[i] = both[2];
      startToEnd[i] = both[3];
      submitCall[i] = both[4];
      callToSubmitted[i] = both[5];
      finishedToSeen[i] = both[6];
      int run = i;
      lastSteps.forEach(
          (step, nanos) -> steps.computeIfAbsent(step, k -> new long[runs])[run] = nanos);
    }
    Map<String, Double> stepMedians = new LinkedHashMap<>();
    steps.forEach((step, nanos) -> stepMedians.put(step, LatencySummary.median(nanos)));
    return new Result(
        LatencySummary.median(direct),
        LatencySummary.median(viaServer),
        LatencySummary.median(recorded),
        LatencySummary.median(toStart),
        LatencySummary.median(startToEnd),
        LatencySummary.median(submitCall),
        LatencySummary.median(callToSubmitted),
        LatencySummary.median(finishedToSeen),
        stepMedians);
  }

  private long directMpirun() throws Exception {
    DispatcherConfig config =
        new DispatcherConfig(
            "mpirun",
            java.util.List.of(),
            false,
            Duration.ofSeconds(10),
            DispatcherConfig.DEFAULT_INHERITED_ENVIRONMENT);
    LaunchSpec spec =
        LaunchSpec.builder("benchmark", ProgramKind.MPI, "/bin/true")
            .processes(1)
            .workingDirectory(workDir)
            .output(workDir.resolve("stdout.txt"), workDir.resolve("stderr.txt"))
            .wallTimeLimit(Duration.ofSeconds(60))
            .build();
    MpirunCommand command = new MpirunCommand(config);
    ProcessBuilder pb =
        new ProcessBuilder(command.argv(spec))
            .directory(workDir.toFile())
            .redirectOutput(workDir.resolve("stdout.txt").toFile())
            .redirectError(workDir.resolve("stderr.txt").toFile());
    pb.environment().clear();
    // the baseline: mpirun alone as the benchmark's own user, no sandbox, no account switch
    pb.environment().put("PATH", System.getenv("PATH"));
    pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
    pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(
          "mpirun -np 1 /bin/true failed: " + Files.readString(workDir.resolve("stderr.txt")));
    }
    return System.nanoTime() - start;
  }

  /**
   * Client-observed submit to SUCCEEDED, and the server's own submitted-to-finished time split at
   * the program's start (queue, stage-in and launch before it; the program, its end being noticed
   * and stage-out after it); and the client's side of it: the submit call's round trip, the time
   * from sending it to the job's recorded submission, and from the recorded end to the client's
   * seeing it (the server and the client share this machine's clock).
   */
  private long[] submitAndWait() throws Exception {
    Instant sent = Instant.now();
    long start = System.nanoTime();
    String id = client.submitJob(TestJobs.job("trivial").mpirun(1, 60, "/bin/true").document());
    long submitCall = System.nanoTime() - start;
    // waitForJob answers when the job ends: no polling, which on two cores slowed the very job
    // it waited for (a poll every 2 ms added 50 ms to the program's run) and lagged its end
    JobStatusInfo status = client.waitForJob(id, 20);
    long deadline = start + TimeUnit.SECONDS.toNanos(60);
    while (!TestJobs.isFinal(status.state) && System.nanoTime() < deadline) {
      status = client.waitForJob(id, 20);
    }
    long took = System.nanoTime() - start;
    Instant seen = Instant.now();
    if (status.state != JobStateName.SUCCEEDED) {
      throw new IllegalStateException(
          "trivial job ended " + status.state + ": " + status.failureReason);
    }
    lastSteps = steps(id);
    long recorded = Duration.between(status.submitted, status.finished).toNanos();
    long toStart = Duration.between(status.submitted, status.started).toNanos();
    long startToEnd = Duration.between(status.started, status.finished).toNanos();
    return new long[] {
      took,
      recorded,
      toStart,
      startToEnd,
      submitCall,
      Duration.between(sent, status.submitted).toNanos(),
      Duration.between(status.finished, seen).toNanos()
    };
  }

  /**
   * The job's timeline from its audit trail: for each entry (a transition {@code FROM_to_TO}, or
   * another kind of entry by its kind), the time since the entry before it; the first entry counts
   * from the job's submission. Each transition's time is when it was stored, so a step's time
   * includes the store's commit and sync.
   */
  private Map<String, Long> steps(String id) throws Exception {
    JobAudit audit = client.getJobAudit(id);
    Map<String, Long> out = new LinkedHashMap<>();
    Instant before = null;
    for (AuditEntry e : audit.entries) {
      String name =
          e.fromState != null && e.toState != null
              ? e.fromState + "_to_" + e.toState
              : e.toState != null ? "to_" + e.toState : e.kind;
      if (before != null) {
        out.merge(name, Duration.between(before, e.at).toNanos(), Long::sum);
      }
      before = e.at;
    }
    return out;
  }
}
