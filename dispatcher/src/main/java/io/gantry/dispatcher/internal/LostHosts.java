package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the hosts an {@code mpirun-hosts} job lost. When the keepalive probes of Open MPI's
 * connection to a host's daemon go unanswered ({@link io.gantry.dispatcher.SshLaunchAgent}), mpirun
 * prints its "lost communication with a remote daemon" message, which names the host ("Remote
 * daemon: [[J,0],N] on node HOST", Open MPI's help-errmgr-base.txt, {@code node-died}), to its
 * standard error (the job's stderr file) and aborts the job. A failed job whose stderr holds such
 * lines gets "lost contact with host HOST" in its outcome's detail, so its failure reason names the
 * host rather than only mpirun's exit code (docs/reliability.md, "Lost nodes").
 */
public final class LostHosts implements RunningJob {
  private static final Pattern NODE_DIED = Pattern.compile("Remote daemon: *\\S+ on node (\\S+)");

  /** Only the end of the file is read: the message comes last, and a job's stderr may be huge. */
  private static final int TAIL_BYTES = 64 * 1024;

  private final RunningJob job;
  private final CompletableFuture<JobOutcome> outcome;

  private LostHosts(RunningJob job, Path stderr) {
    this.job = job;
    this.outcome = job.onExit().thenApply(o -> named(o, stderr));
  }

  /** {@code job} with its outcome naming the hosts lost, read from {@code stderr} at its end. */
  public static RunningJob naming(RunningJob job, Path stderr) {
    return new LostHosts(job, stderr);
  }

  static JobOutcome named(JobOutcome o, Path stderr) {
    if (o.succeeded() || o.killed()) {
      return o;
    }
    Set<String> hosts = hostsIn(tail(stderr));
    if (hosts.isEmpty()) {
      return o;
    }
    String lost = "lost contact with host " + String.join(", host ", hosts);
    return new JobOutcome(
            o.jobId(),
            o.exitStatus(),
            o.wallTimeExceeded(),
            o.killed(),
            o.startedAt(),
            o.endedAt(),
            o.stopSignal(),
            o.detail() == null ? lost : o.detail() + "; " + lost,
            o.failedTasks())
        .withUsage(o.usage());
  }

  static Set<String> hostsIn(String text) {
    Set<String> hosts = new LinkedHashSet<>();
    Matcher m = NODE_DIED.matcher(text);
    while (m.find()) {
      hosts.add(m.group(1));
    }
    return hosts;
  }

  private static String tail(Path file) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, f.length() - TAIL_BYTES);
      byte[] bytes = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return ""; // no stderr to read: the outcome stays as it was
    }
  }

  @Override
  public String jobId() {
    return job.jobId();
  }

  @Override
  public long pid() {
    return job.pid();
  }

  @Override
  public CompletableFuture<JobOutcome> onExit() {
    return outcome;
  }

  @Override
  public void terminate(Duration grace) {
    job.terminate(grace);
  }

  @Override
  public boolean outlivesServer() {
    return job.outlivesServer();
  }

  @Override
  public Optional<String> reattachReference() {
    return job.reattachReference();
  }
}
