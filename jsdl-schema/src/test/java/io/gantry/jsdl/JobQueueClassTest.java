package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code gx:Queue}: the priority class a job waits in. */
class JobQueueClassTest {

  @Test
  void theClassIsReadAndSurvivesTheWriter() {
    ParseResult parsed = JobDependenciesTest.parse("<gx:Queue>urgent</gx:Queue>");
    assertTrue(parsed.isValid(), parsed.report().toString());
    assertEquals(Optional.of("urgent"), parsed.validJob().queueClass());
    String written = JsdlWriter.write(parsed.validJob());
    ParseResult again =
        new JsdlParser().parse(written.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(Optional.of("urgent"), again.validJob().queueClass(), written);
  }

  @Test
  void aJobWithoutQueueNamesNoClass() {
    assertEquals(Optional.empty(), JobDependenciesTest.parse("").validJob().queueClass());
  }

  @Test
  void aMalformedOrSecondClassIsRefusedAtItsElement() {
    ParseResult bad = JobDependenciesTest.parse("<gx:Queue>Urgent Now</gx:Queue>");
    assertFalse(bad.isValid());
    assertTrue(
        bad.report().problems().stream().anyMatch(p -> p.path().contains("Queue")),
        bad.report().toString());
    ParseResult two =
        JobDependenciesTest.parse("<gx:Queue>urgent</gx:Queue><gx:Queue>batch</gx:Queue>");
    assertFalse(two.isValid());
    assertTrue(
        two.report().problems().stream().anyMatch(p -> p.message().contains("only one Queue")),
        two.report().toString());
  }
}
