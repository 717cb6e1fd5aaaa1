package io.gantry.server.internal.compute;

import io.gantry.server.soap.TestJobs;
import java.nio.file.Path;

/**
 * The jobs of the streaming tests on other hosts ({@code gx:Stream file}): a producer writing
 * blocked gzip that pauses half-way until released, one that fails half-way, and a follower reading
 * the producer's file as it grows. Shared by every backend's streaming test, so each proves the
 * same chain.
 */
final class StreamingJobs {
  /** gio-cat, built beside mcvar: the follow reader a program on another host uses. */
  static final Path GIO_CAT = SampleVarRun.MCVAR.resolveSibling("gio-cat");

  private StreamingJobs() {}

  /** Writes 400,000 lines of blocked gzip, the second half once released. */
  static TestJobs producer() {
    return TestJobs.job("producer")
        .shell(
            // 1.2 MB before the pause: bgzip's compressed blocks leave its buffers
            "{ seq 1 200000; while [ ! -e release ]; do sleep 0.05; done; seq 200001 400000; }"
                + " | bgzip -c",
            60);
  }

  /**
   * Writes the first 200,000 lines' blocks (not the end-of-file block: its reader waits for more),
   * then, once released, fails.
   */
  static TestJobs failingProducer() {
    return TestJobs.job("failing-producer")
        .shell(
            "seq 1 200000 | bgzip -c | head -c -28; while [ ! -e release ]; do sleep 0.05; done;"
                + " exit 3",
            60);
  }

  /**
   * One MPI rank on a host of the cluster (or a node of it) following the producer's standard
   * output as it is written ({@code gx:Stream file}, gio-cat's follow reader): it records the
   * network namespace it runs in, writes {@code half-seen} at line 10,000 and prints the line count
   * and a sum.
   */
  static TestJobs follower(String producer) {
    return TestJobs.job("follower")
        .dataStaging(
            "<jsdl:DataStaging><jsdl:FileName>in.csv.gz</jsdl:FileName>"
                + "<jsdl:CreationFlag>overwrite</jsdl:CreationFlag>"
                + "<jsdl:Source><jsdl:URI>gantry-job:"
                + producer
                + "/stdout.txt</jsdl:URI></jsdl:Source><gx:Stream>file</gx:Stream>"
                + "</jsdl:DataStaging>")
        .mpirun(
            1,
            60,
            "/bin/sh",
            "-c",
            "readlink /proc/$$/ns/net > net.txt; "
                + GIO_CAT
                + " --follow 60 in.csv.gz | awk '{ s = (s + $1) % 1000003 } NR == 10000 { print NR"
                + " > \"half-seen\"; close(\"half-seen\") } END { print NR, s }'")
        .afterStart(producer);
  }
}
