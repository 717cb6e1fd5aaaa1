package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code gx:Dependencies}: what a job waits for (After, AfterAny) and whether it is held. */
class JobDependenciesTest {
  static final String A = "h3bq2k7x5m4lnr6pz2c7vrw3ya5td4ef";
  static final String B = "k2mx7q3p4r5s6t7u2v3w4x5y6z7a2b3c";

  static ParseResult parse(String dependencies) {
    String xml =
        "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
            + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
            + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription><jsdl:Application>"
            + "<posix:POSIXApplication><posix:Executable>/bin/true</posix:Executable>"
            + "</posix:POSIXApplication></jsdl:Application>"
            + dependencies
            + "</jsdl:JobDescription></jsdl:JobDefinition>";
    return new JsdlParser().parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void afterAfterAnyAndHoldAreReadInOrder() {
    ParseResult parsed =
        parse(
            "<gx:Dependencies><gx:After>"
                + A
                + "</gx:After><gx:After>"
                + B.toUpperCase(java.util.Locale.ROOT)
                + "</gx:After><gx:AfterAny>"
                + B
                + "</gx:AfterAny><gx:Hold>yes</gx:Hold></gx:Dependencies>");
    assertTrue(parsed.isValid(), parsed.report().toString());
    JsdlJob job = parsed.validJob();
    assertEquals(List.of(A, B.toUpperCase(java.util.Locale.ROOT)), job.afterJobs());
    assertEquals(List.of(B), job.afterAnyJobs());
    assertTrue(job.heldAtSubmission());
  }

  @Test
  void aJobWithoutDependenciesWaitsForNothing() {
    JsdlJob job = parse("").validJob();
    assertTrue(job.afterJobs().isEmpty());
    assertFalse(job.heldAtSubmission());
    assertFalse(
        parse("<gx:Dependencies><gx:Hold>no</gx:Hold></gx:Dependencies>")
            .validJob()
            .heldAtSubmission());
  }

  @Test
  void anIdOfTheWrongFormIsRefusedAtItsElement() {
    ParseResult parsed = parse("<gx:Dependencies><gx:After>12345</gx:After></gx:Dependencies>");
    assertFalse(parsed.isValid());
    assertTrue(
        parsed.report().problems().stream().anyMatch(p -> p.path().contains("After")),
        parsed.report().toString());
  }

  @Test
  void aSecondDependenciesElementIsRefused() {
    ParseResult parsed =
        parse(
            "<gx:Dependencies><gx:After>"
                + A
                + "</gx:After></gx:Dependencies><gx:Dependencies><gx:Hold>yes</gx:Hold>"
                + "</gx:Dependencies>");
    assertFalse(parsed.isValid());
    assertTrue(
        parsed.report().problems().stream()
            .anyMatch(p -> p.message().contains("only one Dependencies is allowed")),
        parsed.report().toString());
  }
}
