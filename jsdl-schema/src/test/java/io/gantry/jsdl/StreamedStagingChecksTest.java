package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code gx:Stream}: which DataStaging may stream into its program, and how the parser says no. */
class StreamedStagingChecksTest {
  private static final String PRODUCER = "q3x7kd2b4t3m7n5p4r6s2v2w4y6z5ace";

  private static String job(String fileName, String uri, String stream, String dependencies) {
    return StandardStagingChecksTest.job(
        "<DataStaging><FileName>"
            + fileName
            + "</FileName><CreationFlag>overwrite</CreationFlag>\n<Source><URI>"
            + uri
            + "</URI></Source>"
            + stream
            + "</DataStaging>\n"
            + dependencies);
  }

  private static String afterStart(String job) {
    return "<gx:Dependencies><gx:AfterStart>" + job + "</gx:AfterStart></gx:Dependencies>\n";
  }

  @Test
  void aPipeOrAGzipFileOfAJobStartedBesideIsReadAsItsDelivery() {
    ParseResult pipe =
        new JsdlParser()
            .parse(
                job(
                    "in/lines.csv",
                    "gantry-job:" + PRODUCER + "/stdout.txt",
                    "<gx:Stream>pipe</gx:Stream>",
                    afterStart(PRODUCER)));
    assertTrue(pipe.isValid(), pipe.report().toString());
    assertEquals(List.of(), pipe.report().warnings());
    assertEquals(Optional.of(StreamDelivery.PIPE), pipe.validJob().stagingSteps().get(0).stream());
    ParseResult file =
        new JsdlParser()
            .parse(
                job(
                    "in/s.csv.gz",
                    "gantry-job:" + PRODUCER + "/results/s.csv.gz",
                    "<gx:Stream>file</gx:Stream>",
                    afterStart(PRODUCER)));
    assertTrue(file.isValid(), file.report().toString());
    assertEquals(Optional.of(StreamDelivery.FILE), file.validJob().stagingSteps().get(0).stream());
  }

  @Test
  void everyOtherUseIsRefusedAtTheElementSayingWhy() {
    String source = "gantry-job:" + PRODUCER + "/stdout.txt";
    assertEquals(
        List.of(
            "line 10:83 JobDefinition/JobDescription/DataStaging/Stream: streams job "
                + PRODUCER
                + "'s file while it is written, so the job must start beside it: add"
                + " <gx:AfterStart>"
                + PRODUCER
                + "</gx:AfterStart> to gx:Dependencies"),
        StandardStagingChecksTest.errors(
            job(
                "in.csv",
                source,
                "<gx:Stream>pipe</gx:Stream>",
                "<gx:Dependencies><gx:After>" + PRODUCER + "</gx:After></gx:Dependencies>")));
    assertOneError(
        job("in.csv", "https://h.example/in.csv", "<gx:Stream>pipe</gx:Stream>", ""),
        "only a Source gantry-job:JOB/FILE of a job this one starts beside");
    assertOneError(
        job("in.csv", source, "<gx:Stream>file</gx:Stream>", afterStart(PRODUCER)),
        "Stream file is only for a blocked-gzip FileName ending in .gz");
    assertOneError(
        job("in.csv", source, "<gx:Stream>socket</gx:Stream>", afterStart(PRODUCER)),
        "Stream is 'socket'; it is pipe");
  }

  private static void assertOneError(String document, String start) {
    List<String> errors = StandardStagingChecksTest.errors(document);
    assertEquals(1, errors.size(), errors.toString());
    assertTrue(errors.get(0).contains(start), errors.toString());
  }
}
