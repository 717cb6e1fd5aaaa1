package io.gantry.dispatcher.bench;

import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.dispatcher.workersession.Completion;
import io.gantry.dispatcher.workersession.CompletionState;
import io.gantry.dispatcher.workersession.SessionDispatcher;
import io.gantry.dispatcher.workersession.SessionMessage;
import io.gantry.dispatcher.workersession.SessionOptions;
import io.gantry.dispatcher.workersession.WorkerProgram;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Session mode: N trivial messages (session-echo-worker answers each with itself: the task's own
 * time is nil, so all of the wall time is overhead) through a session of 2 workers: a dispatcher
 * here, 2 gantry-launcher processes over loopback TCP, each relaying to its worker's pipes. The
 * clock runs from the first submit to the last completion taken, once both workers run (the paper's
 * "load time" is reported apart). Prints {@code name: value} lines. Arguments: the launcher, the
 * worker, the message count (default 100000).
 */
public final class SessionBenchmark {
  private SessionBenchmark() {}

  public static void main(String[] args) throws Exception {
    String launcher = args[0];
    String worker = args[1];
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    run(launcher, worker, Math.min(n, 20_000)); // warm-up (JIT), not reported
    double[] r = run(launcher, worker, n);
    double seconds = r[1];
    print("session_tasks", Integer.toString(n));
    print("session_workers", "2");
    print("session_start_seconds", String.format(Locale.ROOT, "%.3f", r[0]));
    print("session_seconds", String.format(Locale.ROOT, "%.3f", seconds));
    print("session_tasks_per_s", String.format(Locale.ROOT, "%.0f", n / seconds));
    print(
        "session_overhead_us_per_task",
        String.format(Locale.ROOT, "%.2f (goal <= 20)", seconds * 1e6 / n));
  }

  /** Answers {start seconds, run seconds}. */
  private static double[] run(String launcher, String worker, int n) throws Exception {
    String secret = FarmDispatcher.newSecret();
    List<Process> launchers = new ArrayList<>();
    long t0 = System.nanoTime();
    try (SessionDispatcher d =
        SessionDispatcher.start(
            "bench",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            secret,
            new WorkerProgram(worker, List.of(), Map.of()),
            SessionOptions.defaults(2))) {
      for (int i = 0; i < 2; i++) {
        ProcessBuilder pb = new ProcessBuilder(launcher);
        pb.environment().put("GANTRY_FARM_DISPATCHER", "127.0.0.1:" + d.address().getPort());
        pb.environment().put("GANTRY_FARM_SECRET", secret);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true);
        launchers.add(pb.start());
      }
      // both workers answer once before the clock starts: the paper's load time, apart
      List<SessionMessage> hello = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        hello.add(new SessionMessage("ready", TaskPriority.NORMAL));
      }
      while (d.status().workers() < 2) {
        Thread.sleep(1); // a benchmark's start-up poll: no test harness here
      }
      d.submit(hello);
      take(d, 2, id -> "ready");
      long started = System.nanoTime();
      List<SessionMessage> batch = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        batch.add(new SessionMessage(Integer.toString(i), TaskPriority.NORMAL));
      }
      long first = d.submit(batch).get(0);
      take(d, n, id -> Long.toString(id - first)); // message i answers i
      long ended = System.nanoTime();
      d.close();
      for (Process p : launchers) {
        p.waitFor(1, TimeUnit.MINUTES);
      }
      return new double[] {(started - t0) / 1e9, (ended - started) / 1e9};
    } finally {
      for (Process p : launchers) {
        p.destroyForcibly();
      }
    }
  }

  /** Takes n completions, each answered with what {@code expected} says for its id. */
  private static void take(
      SessionDispatcher d, int n, java.util.function.LongFunction<String> expected)
      throws InterruptedException {
    int got = 0;
    while (got < n) {
      List<Completion> batch = d.take(100_000, Duration.ofSeconds(60));
      if (batch.isEmpty()) {
        throw new IllegalStateException("no completion in 60 s: " + d.status());
      }
      for (Completion c : batch) {
        if (c.state() != CompletionState.ANSWERED || !c.output().equals(expected.apply(c.id()))) {
          throw new IllegalStateException("not answered as sent: " + c);
        }
      }
      got += batch.size();
    }
  }

  private static void print(String name, String value) {
    System.out.println(name + ": " + value);
  }
}
