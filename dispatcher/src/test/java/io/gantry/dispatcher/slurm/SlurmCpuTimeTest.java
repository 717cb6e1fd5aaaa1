package io.gantry.dispatcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** sacct's TotalCPU in each of its forms, and the job's own line among its steps. */
class SlurmCpuTimeTest {

  @Test
  void readsEachFormOfTotalCpu() {
    assertEquals(java.util.Optional.of(Duration.ofMillis(1234)), SlurmCpuTime.parse("00:01.234"));
    assertEquals(java.util.Optional.of(Duration.parse("PT2H3M4S")), SlurmCpuTime.parse("02:03:04"));
    assertEquals(java.util.Optional.of(Duration.parse("P1DT5S")), SlurmCpuTime.parse("1-00:00:05"));
    assertEquals(java.util.Optional.empty(), SlurmCpuTime.parse(""));
    assertEquals(java.util.Optional.empty(), SlurmCpuTime.parse("INVALID"));
  }

  @Test
  void takesTheJobsLineNotItsSteps() {
    String out = "42.batch|00:01.000\n42|00:03.500\n42.0|00:02.500\n";
    assertEquals(java.util.Optional.of(Duration.ofMillis(3500)), SlurmCpuTime.fromSacct(out, "42"));
    assertEquals(
        java.util.Optional.empty(),
        SlurmCpuTime.fromSacct("Slurm accounting storage is disabled\n", "42"));
  }
}
