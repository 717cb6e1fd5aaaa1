package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
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

  /**
   * The end of the job's stderr, which lies in a directory the job writes: it may have been
   * replaced by a link (to a file of the server's) or a FIFO (whose open would block this thread
   * for good). So, as JobDirectoryReader does for staging: no link followed, a regular file only,
   * opened read-write (Linux opens a FIFO swapped in after the check that way without blocking),
   * and lseek(2) refuses what is not seekable. Anything else: nothing read, the outcome unchanged.
   */
  private static String tail(Path file) {
    try {
      if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .isRegularFile()) {
        return "";
      }
      try (FileChannel f =
          FileChannel.open(
              file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
        long size = f.size();
        long start = Math.max(0, size - TAIL_BYTES);
        f.position(start); // lseek(2): fails on a FIFO or socket swapped in since the check
        ByteBuffer bytes = ByteBuffer.allocate((int) (size - start));
        while (bytes.hasRemaining() && f.read(bytes) >= 0) {
          // a file that shrank meanwhile ends the loop at its new end
        }
        return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      return ""; // no stderr to read, or not one to trust: the outcome stays as it was
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
