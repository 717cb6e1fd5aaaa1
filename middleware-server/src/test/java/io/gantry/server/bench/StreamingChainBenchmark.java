package io.gantry.server.bench;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A two-stage chain on one {@code local} server: a producer writing CSV to its standard output at a
 * steady pace, and a consumer reducing it in one pass (awk summing the last field of every line),
 * run twice in the same run: streamed (the consumer waits with {@code gx:AfterStart} and its
 * program reads the producer's file through a FIFO as it is written, {@code gx:Stream pipe}) and
 * staged after (the consumer waits with {@code gx:After}, its stage-in copies the finished file and
 * the same command reads it). Prints {@code name: value} lines: each chain's makespan (the
 * producer's submission to the consumer's end, as the client sees it), the stages' own times as the
 * server recorded them, the ratios, and whether both consumers printed the same result. The longer
 * stage is the longer of the producer and the consumer's program in the staged-after chain, where
 * each runs alone. The machine's load is printed by {@code bench/streaming} before and after.
 */
public final class StreamingChainBenchmark {
  /** One CSV line of 50 bytes, newline included: chunks of whole lines. */
  private static final String LINE = "SCN0000001,DESK-RATES,IRS-EUR-10Y,1234567.891234\n";

  private static final Duration POLL = Duration.ofMillis(20);

  /**
   * The consumer: one pass over its input (a FIFO can be read once), the line count and a sum over
   * the last field, each value first put through {@code work} rounds of arithmetic (a smoothing
   * step), so that the consumer's computing can be set to about the producer's time (8 rounds:
   * about 20 s for 1 GB with mawk on the development machine, as long as the producer).
   */
  private static String reduce(int work) {
    return "awk -F, -v w="
        + work
        + " '{ v = $4; for (i = 0; i < w; i++) v = v * 0.999999 + 1; s += v }"
        + " END { printf \"%d %.6f\\n\", NR, s }' in.csv";
  }

  public static void main(String[] args) throws Exception {
    long megabytes = Long.getLong("bench.megabytes", 1024);
    int seconds = Integer.getInteger("bench.producer-seconds", 20);
    int chunks = Integer.getInteger("bench.chunks", 100);
    long chunkBytes = megabytes * 1024 * 1024 / chunks / LINE.length() * LINE.length();
    print("bench.producer_bytes", chunkBytes * chunks);
    print("bench.producer_paced_seconds", seconds);
    print("bench.consumer_work", Integer.getInteger("bench.consumer-work", 8));
    Path tmp = Files.createTempDirectory("gantry-bench-streaming");
    try (GantryTestServer server =
        GantryTestServer.builder(tmp.resolve("server"))
            .slots(2)
            .settings(java.util.Map.of("staging.parallelism", "2"))
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      String producer = producer(chunks, chunkBytes, (double) seconds / chunks);
      Chain streamed = chain(client, producer, true);
      Chain staged = chain(client, producer, false);
      report("streamed", streamed);
      report("staged", staged);
      double longer = Math.max(staged.producerSeconds(), staged.consumerProgramSeconds());
      print("ratio.streamed_to_staged_makespan", ratio(streamed.makespan(), staged.makespan()));
      print("ratio.streamed_makespan_to_longer_stage", ratio(streamed.makespan(), longer));
      String a = Files.readString(server.jobDirectory(streamed.consumer()).resolve("stdout.txt"));
      String b = Files.readString(server.jobDirectory(staged.consumer()).resolve("stdout.txt"));
      print("consumer.result", a.strip().replace('\n', ' '));
      print("consumer.streamed_equals_staged", a.equals(b));
    } finally {
      deleteTree(tmp);
    }
    System.exit(0); // CXF and HTTP client threads are not all daemons
  }

  /** The producer's program: {@code chunks} chunks of whole CSV lines, a pause after each. */
  private static String producer(int chunks, long chunkBytes, double pauseSeconds) {
    String line = LINE.substring(0, LINE.length() - 1);
    return String.format(
        Locale.ROOT,
        "i=0; while [ $i -lt %d ]; do yes '%s' | head -c %d; sleep %.3f; i=$((i+1)); done",
        chunks,
        line,
        chunkBytes,
        pauseSeconds);
  }

  record Chain(
      String consumer,
      double makespan,
      double producerSeconds,
      double producerEndToConsumerStart,
      double consumerProgramSeconds) {}

  private static Chain chain(JobManagement client, String producerScript, boolean streamed)
      throws Exception {
    long t0 = System.nanoTime();
    String producer =
        client.submitJob(TestJobs.job("produce").shell(producerScript, 600).document());
    TestJobs consumer =
        TestJobs.job("reduce")
            .dataStaging(
                "<jsdl:DataStaging><jsdl:FileName>in.csv</jsdl:FileName>"
                    + "<jsdl:CreationFlag>overwrite</jsdl:CreationFlag><jsdl:Source><jsdl:URI>"
                    + "gantry-job:"
                    + producer
                    + "/stdout.txt</jsdl:URI></jsdl:Source>"
                    + (streamed ? "<gx:Stream>pipe</gx:Stream>" : "")
                    + "</jsdl:DataStaging>")
            .shell(reduce(Integer.getInteger("bench.consumer-work", 8)), 600);
    String id =
        client.submitJob(
            (streamed ? consumer.afterStart(producer) : consumer.after(producer)).document());
    JobStatusInfo end = awaitFinal(client, id);
    double makespan = (System.nanoTime() - t0) / 1e9;
    JobStatusInfo p = client.getJobStatus(producer);
    if (p.state != JobStateName.SUCCEEDED || end.state != JobStateName.SUCCEEDED) {
      throw new IllegalStateException(
          "the chain failed: producer "
              + p.state
              + " "
              + p.failureReason
              + ", consumer "
              + end.state
              + " "
              + end.failureReason);
    }
    return new Chain(
        id,
        makespan,
        seconds(p.started, p.finished),
        seconds(p.finished, end.started), // the consumer's stage-in left after the producer
        seconds(end.started, end.finished));
  }

  private static void report(String prefix, Chain c) {
    print(prefix + ".makespan_s", String.format(Locale.ROOT, "%.2f", c.makespan()));
    print(prefix + ".producer_s", String.format(Locale.ROOT, "%.2f", c.producerSeconds()));
    print(
        prefix + ".producer_end_to_consumer_start_s",
        String.format(Locale.ROOT, "%.2f", c.producerEndToConsumerStart()));
    print(
        prefix + ".consumer_program_s",
        String.format(Locale.ROOT, "%.2f", c.consumerProgramSeconds()));
  }

  private static JobStatusInfo awaitFinal(JobManagement client, String id) throws Exception {
    while (true) {
      JobStatusInfo s = client.getJobStatus(id);
      if (TestJobs.isFinal(s.state)) {
        return s;
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private static double seconds(java.time.Instant from, java.time.Instant to) {
    return Duration.between(from, to).toNanos() / 1e9;
  }

  private static String ratio(double a, double b) {
    return String.format(Locale.ROOT, "%.3f", a / b);
  }

  private static void print(String name, Object value) {
    System.out.println(name + ": " + value);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
