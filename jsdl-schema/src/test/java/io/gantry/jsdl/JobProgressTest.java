package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The progress file's format: checkpoints, figures, the headline, and clear errors by line. */
class JobProgressTest {
  private static JobProgress parse(String text) throws Exception {
    return JobProgress.parse(new StringReader(text), "progress.csv");
  }

  @Test
  void rowsOfEqualDoneAreOneCheckpointAndTheFirstFigureIsTheHeadline() throws Exception {
    JobProgress p =
        parse(
            JobProgress.HEADER
                + "\n1000,5000,scenarios,VaR 0.99 BANK,120.5,9.5\n"
                + "1000,5000,scenarios,\"ES 0.99 BANK/A,B\",150,\n"
                + "2000,5000,scenarios,VaR 0.99 BANK,118.25,6.75\n"
                + "2500,,steps,,,\n");
    assertEquals(3, p.checkpoints().size());
    JobProgress.Checkpoint first = p.checkpoints().get(0);
    assertEquals(1000, first.done());
    assertEquals(OptionalLong.of(5000), first.total());
    assertEquals(
        List.of("VaR 0.99 BANK", "ES 0.99 BANK/A,B"),
        first.figures().stream().map(JobProgress.Figure::name).toList());
    assertTrue(first.figures().get(1).stderr().isEmpty());
    assertEquals(2500, p.latest().orElseThrow().done());
    assertTrue(p.latest().orElseThrow().figures().isEmpty(), "a progress-only row");
    assertEquals(OptionalLong.empty(), p.latest().orElseThrow().total());
    assertEquals("VaR 0.99 BANK", p.checkpoints().get(1).figures().get(0).name());
    assertEquals(List.of(1000L, 2000L), List.copyOf(p.series("VaR 0.99 BANK").keySet()));
    assertEquals(6.75, p.series("VaR 0.99 BANK").get(2000L).stderr().orElseThrow());
    assertTrue(parse(JobProgress.HEADER + "\n").latest().isEmpty());
  }

  @Test
  void aBadFileIsRefusedWithItsLine() {
    String h = JobProgress.HEADER + "\n";
    assertEquals(
        "progress.csv:1: the header is not " + JobProgress.HEADER,
        assertThrows(JobProgress.FormatException.class, () -> parse("done,total\n1,2\n"))
            .getMessage());
    assertEquals(
        "progress.csv:3: done 5 is below the 10 before",
        assertThrows(
                JobProgress.FormatException.class, () -> parse(h + "10,20,s,x,1,\n5,20,s,x,1,\n"))
            .getMessage());
    assertEquals(
        "progress.csv:2: value 'abc' is not a finite number",
        assertThrows(JobProgress.FormatException.class, () -> parse(h + "1,2,s,x,abc,\n"))
            .getMessage());
    assertEquals(
        "progress.csv:2: done '-1' is not a whole number >= 0",
        assertThrows(JobProgress.FormatException.class, () -> parse(h + "-1,2,s,x,1,\n"))
            .getMessage());
    assertEquals(
        "progress.csv:2: 4 fields, not 6",
        assertThrows(JobProgress.FormatException.class, () -> parse(h + "1,2,s,x\n")).getMessage());
  }
}
