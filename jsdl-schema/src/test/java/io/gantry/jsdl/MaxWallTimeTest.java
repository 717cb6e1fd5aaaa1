package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** limits.max-wall-time: a longer WallTimeLimit is a problem at its element, never a silent cap. */
class MaxWallTimeTest {
  private static final String MPI = "JobDefinition/JobDescription/Application/MpirunApplication";

  @Test
  void aWallTimeLimitAboveTheServersMaximumIsAnErrorAtItsLineAndColumn() {
    JsdlParser parser =
        new JsdlParser(ParserOptions.defaults().withMaxWallTime(Duration.ofMinutes(5)));
    ParseResult result = parser.parse(JsdlDocuments.baseJob()); // asks for 600 s
    assertFalse(result.isValid());
    Problem p = result.report().problems().get(0);
    assertEquals(1, result.report().problems().size(), result.report().toString());
    assertEquals(18, p.line());
    assertEquals(9, p.column());
    assertEquals(MPI + "/WallTimeLimit", p.path());
    assertEquals(
        "is 600 s, longer than this server allows: at most 300 s (setting limits.max-wall-time)",
        p.message());
  }

  @Test
  void aWallTimeLimitAtTheMaximumIsValid() {
    JsdlParser parser =
        new JsdlParser(ParserOptions.defaults().withMaxWallTime(Duration.ofMinutes(10)));
    assertTrue(parser.parse(JsdlDocuments.baseJob()).isValid());
  }

  @Test
  void withoutAMaximumAnyWallTimeLimitIsValid() {
    assertTrue(
        new JsdlParser()
            .parse(
                JsdlDocuments.baseJob()
                    .replace("<gx:WallTimeLimit>600<", "<gx:WallTimeLimit>99999999<"))
            .isValid());
  }
}
