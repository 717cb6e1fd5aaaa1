package io.gantry.jsdl.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import java.util.Map;

/**
 * Fuzz tests of the JSDL reader (docs/reliability.md). Without JAZZER_FUZZ each runs its kept
 * inputs (src/test/resources/io/gantry/jsdl/fuzz/JsdlParserFuzzTestInputs/METHOD/) once, as a
 * regular test; with JAZZER_FUZZ=1 Jazzer mutates them. Any exception out of the parser, or a
 * property below broken, is a finding.
 */
class JsdlParserFuzzTest {
  private static final JsdlParser PARSER = new JsdlParser();

  /** A job template whose job name and first argument are filled from two parameters. */
  private static final String TEMPLATE =
      "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
          + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
          + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription>"
          + "<jsdl:JobIdentification><jsdl:JobName>var-${desk}</jsdl:JobName>"
          + "</jsdl:JobIdentification><jsdl:Application><posix:POSIXApplication>"
          + "<posix:Executable>/bin/echo</posix:Executable>"
          + "<posix:Argument>${paths}</posix:Argument>"
          + "</posix:POSIXApplication></jsdl:Application>"
          + "<gx:Parameters><gx:Parameter name=\"desk\"/>"
          + "<gx:Parameter name=\"paths\" type=\"integer\" default=\"1000\"/></gx:Parameters>"
          + "</jsdl:JobDescription></jsdl:JobDefinition>";

  /** Any bytes: a result, never an exception; valid exactly when there is a job and no error. */
  @FuzzTest(maxDuration = "30s")
  void parse(byte[] document) {
    ParseResult result = PARSER.parse(document);
    assertEquals(result.isValid(), result.job().isPresent());
    assertEquals(!result.isValid(), result.report().hasErrors());
  }

  /**
   * Template substitution with hostile values: a value is either refused with an error or lands in
   * the document exactly as given, an integer as its canonical value (no markup, no second round of
   * substitution).
   */
  @FuzzTest(maxDuration = "30s")
  void fillTemplate(FuzzedDataProvider data) {
    String desk = data.consumeString(200);
    String paths = data.consumeRemainingAsString();
    ParseResult result = PARSER.parse(TEMPLATE, Map.of("desk", desk, "paths", paths));
    if (result.isValid()) {
      JsdlJob job = result.validJob();
      assertEquals("var-" + desk, job.jobName().orElseThrow());
      String argument = job.posixApplication().orElseThrow().getArgument().get(0).getValue();
      // an integer parameter lands as its canonical value (ParameterType): "\t3", "+3", "003" as 3
      if (!paths.isBlank()) {
        assertEquals(Long.toString(Long.parseLong(paths.strip())), argument);
      }
    } else {
      assertTrue(result.report().hasErrors());
      assertFalse(result.report().errors().isEmpty());
    }
  }
}
