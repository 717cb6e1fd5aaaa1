package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.model.ext.SQLQueryDataStagingType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Job templates: gx:Parameters filled before every check, values checked against their types,
 * references in SQL bound as JDBC parameters, and documents without parameters untouched.
 */
class JobTemplateTest {
  private static final String HEAD =
      "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
          + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
          + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription>";
  private static final String TAIL = "</jsdl:JobDescription></jsdl:JobDefinition>";

  private static final String PARAMETERS =
      "<gx:Parameters>"
          + "<gx:Parameter name=\"business_date\" type=\"date\" default=\"2026-11-20\"/>"
          + "<gx:Parameter name=\"desk\" description=\"the desk\"/>"
          + "<gx:Parameter name=\"paths\" type=\"integer\" default=\"1000\"/>"
          + "<gx:Parameter name=\"level\" type=\"decimal\" default=\"0.99\"/>"
          + "<gx:Parameter name=\"dry\" type=\"boolean\" default=\"false\"/>"
          + "</gx:Parameters>";

  private static String job(String parameters, String arguments, String staging) {
    return HEAD
        + "<jsdl:JobIdentification><jsdl:JobName>var-${desk}</jsdl:JobName></jsdl:JobIdentification>"
        + "<jsdl:Application><posix:POSIXApplication>"
        + "<posix:Executable>/bin/echo</posix:Executable>"
        + arguments
        + "</posix:POSIXApplication></jsdl:Application>"
        + parameters
        + staging
        + TAIL;
  }

  private static String query(String sql, String output, String input) {
    return "<gx:SQLQueryDataStaging><gx:DataSourceRef>market</gx:DataSourceRef>"
        + "<gx:ExecutionOrderGroup>"
        + (input == null ? 1 : 2)
        + "</gx:ExecutionOrderGroup><gx:SQLStatement>"
        + sql
        + "</gx:SQLStatement><gx:SQLOutputFileName>"
        + output
        + "</gx:SQLOutputFileName>"
        + (input == null ? "" : "<gx:SQLInputFileName>" + input + "</gx:SQLInputFileName>")
        + "</gx:SQLQueryDataStaging>";
  }

  private static String messages(ParseResult result) {
    return result.report().toString();
  }

  @Test
  void aDocumentWithoutParametersIsReadExactlyAsWritten() {
    String xml =
        job(
            "",
            "<posix:Argument>$HOME</posix:Argument><posix:Argument>${HOME}</posix:Argument>"
                + "<posix:Argument>$${x} $$</posix:Argument>",
            "");
    JsdlJob job = new JsdlParser().parse(xml).validJob();
    assertTrue(job.template().isEmpty());
    List<String> args =
        job.posixApplication().orElseThrow().getArgument().stream().map(a -> a.getValue()).toList();
    assertEquals(List.of("$HOME", "${HOME}", "$${x} $$"), args);
    assertEquals("var-${desk}", job.jobName().orElseThrow());
  }

  @Test
  void valuesForADocumentWithoutParametersAreRefused() {
    ParseResult result = new JsdlParser().parse(job("", "", ""), Map.of("desk", "RATES"));
    assertFalse(result.isValid());
    assertTrue(messages(result).contains("declares no parameters"), messages(result));
  }

  @Test
  void givenValuesAndDefaultsFillTextAndAttributesInCanonicalForm() {
    String xml =
        job(
            PARAMETERS,
            "<posix:Argument>--date=${business_date}</posix:Argument>"
                + "<posix:Argument>${paths} ${level} ${dry}</posix:Argument>"
                + "<posix:Environment name=\"DESK\">${desk}</posix:Environment>",
            "");
    JsdlJob job =
        new JsdlParser()
            .parse(xml, Map.of("desk", "RATES", "paths", "007", "dry", "TRUE"))
            .validJob();
    assertEquals("var-RATES", job.jobName().orElseThrow());
    List<String> args =
        job.posixApplication().orElseThrow().getArgument().stream().map(a -> a.getValue()).toList();
    assertEquals(List.of("--date=2026-11-20", "7 0.99 true"), args);
    assertEquals("RATES", job.posixApplication().orElseThrow().getEnvironment().get(0).getValue());
    JobTemplate template = job.template().orElseThrow();
    assertEquals(
        Map.of(
            "business_date", "2026-11-20",
            "desk", "RATES",
            "paths", "7",
            "level", "0.99",
            "dry", "true"),
        template.values());
    assertEquals(5, template.declared().size());
    assertTrue(template.source().contains("var-${desk}"), "the template is kept as written");
  }

  @Test
  void aValueOfTheWrongTypeIsAnErrorNamingTheParameter() {
    String xml = job(PARAMETERS, "", "");
    for (Map.Entry<String, String> wrong :
        Map.of(
                "business_date", "2026-13-01",
                "paths", "many",
                "level", "1e3",
                "dry", "maybe")
            .entrySet()) {
      ParseResult result =
          new JsdlParser().parse(xml, Map.of("desk", "RATES", wrong.getKey(), wrong.getValue()));
      assertFalse(result.isValid(), wrong.toString());
      assertTrue(
          messages(result).contains("parameter " + wrong.getKey() + " (")
              && messages(result).contains("'" + wrong.getValue() + "' is not"),
          messages(result));
    }
  }

  @Test
  void aWrongDefaultIsAnErrorAtItsDeclaration() {
    String xml =
        job(
            "<gx:Parameters><gx:Parameter name=\"d\" type=\"date\" default=\"today\"/></gx:Parameters>",
            "",
            "");
    ParseResult result = new JsdlParser().parse(xml);
    assertFalse(result.isValid());
    assertTrue(messages(result).contains("Parameters/Parameter"), messages(result));
    assertTrue(
        messages(result).contains("its default 'today' is not an ISO date"), messages(result));
  }

  @Test
  void aWellWrittenDateOfNoDayIsToldAsSuch() {
    String xml =
        job(
            "<gx:Parameters><gx:Parameter name=\"d\" type=\"date\" default=\"2026-11-31\"/>"
                + "</gx:Parameters>",
            "",
            "");
    ParseResult result = new JsdlParser().parse(xml);
    assertFalse(result.isValid());
    assertTrue(
        messages(result).contains("'2026-11-31' is not a day: November 2026 has 30 days"),
        messages(result));
    assertFalse(messages(result).contains("not an ISO date"), messages(result));
    assertEquals(
        "'2026-02-29' is not a day: February 2026 has 28 days",
        assertThrows(
                IllegalArgumentException.class, () -> ParameterType.DATE.canonical("2026-02-29"))
            .getMessage());
    assertEquals("2028-02-29", ParameterType.DATE.canonical("2028-02-29"));
    assertEquals(
        "'2026-13-01' is not a day: there is no month 13",
        assertThrows(
                IllegalArgumentException.class, () -> ParameterType.DATE.canonical("2026-13-01"))
            .getMessage());
  }

  @Test
  void anEmptyValueIsRefusedNamingTheParameterUnlessTheTemplateAllowsIt() {
    ParseResult empty = new JsdlParser().parse(job(PARAMETERS, "", ""), Map.of("desk", ""));
    assertFalse(empty.isValid());
    assertTrue(messages(empty).contains("parameter desk is given an empty value"), messages(empty));
    ParseResult blank = new JsdlParser().parse(job(PARAMETERS, "", ""), Map.of("desk", "  "));
    assertFalse(blank.isValid(), messages(blank));
    String allowing =
        PARAMETERS.replace(
            "name=\"desk\" description", "name=\"desk\" allowEmpty=\"true\" description");
    ParseResult allowed = new JsdlParser().parse(job(allowing, "", ""), Map.of("desk", ""));
    assertTrue(allowed.isValid(), messages(allowed));
    assertEquals("", allowed.validJob().template().orElseThrow().values().get("desk"));
  }

  @Test
  void aMissingValueWithoutDefaultIsAnErrorNamingIt() {
    ParseResult result = new JsdlParser().parse(job(PARAMETERS, "", ""));
    assertFalse(result.isValid());
    assertTrue(
        messages(result).contains("parameter desk has no value and no default"), messages(result));
  }

  @Test
  void aValueForAnUndeclaredNameIsAnError() {
    ParseResult result =
        new JsdlParser().parse(job(PARAMETERS, "", ""), Map.of("desk", "A", "dsek", "B"));
    assertFalse(result.isValid());
    assertTrue(
        messages(result).contains("parameter dsek is given a value but is not declared"),
        messages(result));
  }

  @Test
  void sqlReferencesBecomeBoundMarkersAndAnInjectionStaysData() {
    String attack = "RATES' OR '1'='1";
    String staging =
        "<gx:PreDataStaging>"
            + query("SELECT id FROM position WHERE desk = ${desk}", "ids.csv", null)
            + query(
                "SELECT as_of, level FROM history WHERE factor = ? AND as_of &lt;= ${business_date}"
                    + " AND desk = ${desk}",
                "history.csv",
                "ids.csv")
            + "</gx:PreDataStaging>";
    JsdlJob job =
        new JsdlParser().parse(job(PARAMETERS, "", staging), Map.of("desk", attack)).validJob();
    List<SQLQueryDataStagingType> queries = job.sqlQueries();
    assertEquals("SELECT id FROM position WHERE desk = ?", queries.get(0).getSQLStatement());
    assertEquals(new TreeMap<>(Map.of(1, attack)), job.boundValues(queries.get(0)));
    assertEquals(
        "SELECT as_of, level FROM history WHERE factor = ? AND as_of <= ? AND desk = ?",
        queries.get(1).getSQLStatement());
    SortedMap<Integer, String> second = job.boundValues(queries.get(1));
    assertEquals(new TreeMap<>(Map.of(2, "2026-11-20", 3, attack)), second);
    assertFalse(
        queries.stream().anyMatch(q -> q.getSQLStatement().contains("RATES")),
        "no value is ever part of the SQL text");
  }

  @Test
  void aReferenceInsideQuotesIsRefusedInsteadOfSpliced() {
    String staging =
        "<gx:PreDataStaging>"
            + query("SELECT id FROM position WHERE desk = '${desk}'", "ids.csv", null)
            + "</gx:PreDataStaging>";
    ParseResult result = new JsdlParser().parse(job(PARAMETERS, "", staging), Map.of("desk", "A"));
    assertFalse(result.isValid());
    assertTrue(messages(result).contains("${desk} stands inside quotes"), messages(result));
  }

  @Test
  void templateMarkersDoNotCountAsInputFileParameters() {
    String staging =
        "<gx:PreDataStaging>"
            + query("SELECT id FROM position WHERE desk = ${desk}", "ids.csv", null)
            + query("SELECT level FROM history WHERE as_of = ${business_date}", "h.csv", "ids.csv")
            + "</gx:PreDataStaging>";
    ParseResult result = new JsdlParser().parse(job(PARAMETERS, "", staging), Map.of("desk", "A"));
    assertTrue(
        messages(result).contains("has no ? parameters, so the rows of SQLInputFileName"),
        messages(result));
  }

  @Test
  void fileNamesAreCheckedAfterSubstitution() {
    String staging =
        "<gx:PreDataStaging>"
            + query("SELECT 1 FROM position", "${desk}/ids.csv", null)
            + "</gx:PreDataStaging>";
    ParseResult result =
        new JsdlParser().parse(job(PARAMETERS, "", staging), Map.of("desk", "../../etc"));
    assertFalse(result.isValid());
    assertTrue(messages(result).contains("../../etc/ids.csv"), messages(result));
  }

  @Test
  void dollarDollarBraceKeepsALiteralAndUnknownReferencesWarn() {
    String xml =
        job(
            PARAMETERS,
            "<posix:Argument>$${desk}</posix:Argument><posix:Argument>${HOME} $HOME $$</posix:Argument>",
            "");
    ParseResult result = new JsdlParser().parse(xml, Map.of("desk", "A"));
    JsdlJob job = result.validJob();
    List<String> args =
        job.posixApplication().orElseThrow().getArgument().stream().map(a -> a.getValue()).toList();
    assertEquals(List.of("${desk}", "${HOME} $HOME $$"), args);
    assertTrue(
        result.report().warnings().stream().anyMatch(p -> p.message().contains("${HOME}")),
        messages(result));
  }

  @Test
  void theSampleTemplateIsFilledByItsDefaults() throws Exception {
    byte[] xml = Files.readAllBytes(Path.of("examples", "var-job-named.jsdl"));
    JsdlJob job = new JsdlParser().parse(xml).validJob();
    assertEquals(
        Map.of("business_date", "2026-11-20", "portfolio", "BANK"),
        job.template().orElseThrow().values());
    assertEquals("var-BANK-daily-named", job.jobName().orElseThrow());
    JsdlJob other = new JsdlParser().parse(xml, Map.of("portfolio", "BANK/GANTRY-EU")).validJob();
    assertEquals("var-BANK/GANTRY-EU-daily-named", other.jobName().orElseThrow());
    assertEquals(
        Map.of(1, "2026-11-20", 2, "BANK/GANTRY-EU"),
        other.boundValues(other.sqlQueries().get(0)),
        "the positions of the business date under the node");
  }
}
