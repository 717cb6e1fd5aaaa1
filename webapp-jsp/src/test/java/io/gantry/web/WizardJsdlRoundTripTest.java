package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.JobTemplate;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.JsdlWriter;
import io.gantry.jsdl.ParseResult;
import io.gantry.web.WizardStage.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wizard's JSDL importer and composer, without a server. */
class WizardJsdlRoundTripTest {
  static final Path EXAMPLES = Path.of("..", "jsdl-schema", "examples");
  private final JsdlParser parser = new JsdlParser();

  @Test
  void thePriorityClassIsComposedAsGxQueueAndReadBack() throws Exception {
    WizardJob job = WizardJob.fresh();
    job.set("queue", "urgent");
    String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job));
    ParseResult parsed = parser.parse(composed.getBytes(StandardCharsets.UTF_8), Map.of());
    assertTrue(parsed.isValid(), parsed.report()::toString);
    assertEquals(java.util.Optional.of("urgent"), parsed.validJob().queueClass());

    WizardJsdlImporter.Result imported =
        WizardJsdlImporter.read(composed.getBytes(StandardCharsets.UTF_8), parser);
    assertTrue(imported.ok(), () -> imported.problems() + " " + imported.unsupported());
    assertEquals("urgent", imported.job().value("queue"));
    assertTrue(WizardForm.check("queue", "").isEmpty(), "none: the server's default class");
    assertTrue(
        WizardForm.check("queue", "Urgent!").orElseThrow().startsWith("A priority class is"));
  }

  @Test
  void aJobTemplateIsReadWithItsParametersAndReferencesAndComposedBackAsTheSameTemplate()
      throws Exception {
    byte[] original = Files.readAllBytes(EXAMPLES.resolve("var-job-named.jsdl"));
    WizardJsdlImporter.Result imported = WizardJsdlImporter.read(original, parser);
    assertTrue(imported.ok(), () -> imported.problems() + " " + imported.unsupported());
    WizardJob job = imported.job();
    assertEquals(
        List.of("business_date date 2026-11-20", "portfolio string BANK"),
        job.getParameters().stream()
            .map(p -> p.getName() + " " + p.getTypeName() + " " + p.value("default"))
            .toList());
    assertEquals(
        "the node of the bank's hierarchy (hierarchy_node.node) whose positions, and every node"
            + " below it, the run reports",
        job.getParameters().get(1).value("description"));
    assertEquals("var-${portfolio}-daily-named", job.value("name"), "references kept as written");
    assertTrue(
        job.getPre().get(0).value("statement").contains("a.ancestor = ${portfolio}"),
        job.getPre().get(0).value("statement"));
    assertTrue(job.getParameters().stream().noneMatch(WizardParameter::isHasErrors));

    String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job));
    assertTrue(composed.contains("as_of &lt;= ${business_date}"), composed);
    for (Map<String, String> values :
        List.of(
            Map.<String, String>of(),
            Map.of("portfolio", "BANK/GANTRY-EU", "business_date", "2026-11-19"))) {
      JsdlJob before = parser.parse(original, values).validJob();
      ParseResult after = parser.parse(composed.getBytes(StandardCharsets.UTF_8), values);
      assertTrue(after.isValid(), after.report()::toString);
      assertEquals(JsdlWriter.write(before), JsdlWriter.write(after.validJob()), values::toString);
      JobTemplate want = before.template().orElseThrow();
      JobTemplate got = after.validJob().template().orElseThrow();
      assertEquals(want.declared(), got.declared(), "the same declarations");
      assertEquals(want.values(), got.values());
      assertEquals(want.queryValues(), got.queryValues(), "the same values bound in the SQL");
    }
    WizardJsdlImporter.Result again =
        WizardJsdlImporter.read(composed.getBytes(StandardCharsets.UTF_8), parser);
    assertTrue(again.ok(), () -> again.problems() + " " + again.unsupported());
    assertEquals(
        composed, WizardJsdlComposer.toXml(WizardJsdlComposer.compose(again.job())), "stable");
  }

  @Test
  void aTemplateWithARequiredParameterIsReadAndItsValueIsGivenOnlyAtSubmission() throws Exception {
    String template =
        Files.readString(EXAMPLES.resolve("var-job-named.jsdl"))
            .replace("type=\"string\" default=\"BANK\"", "type=\"string\"");
    WizardJsdlImporter.Result imported =
        WizardJsdlImporter.read(template.getBytes(StandardCharsets.UTF_8), parser);
    assertTrue(imported.ok(), () -> imported.problems() + " " + imported.unsupported());
    WizardJob job = imported.job();
    assertFalse(job.getParameters().get(1).getValues().containsKey("default"));
    assertEquals(Map.of("business_date", "2026-11-20", "portfolio", ""), job.getValueFields());
    assertEquals(Map.of("business_date", "2026-11-20"), job.valuesToSend(), "empty sends none");
    String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job));
    assertFalse(composed.contains("BANK\""), "no default was invented");
    ParseResult missing = parser.parse(composed, job.valuesToSend());
    assertFalse(missing.isValid());
    assertTrue(missing.report().toString().contains("parameter portfolio has no value"));

    job.parameterValue("portfolio", "DESK-1");
    ParseResult given = parser.parse(composed, job.valuesToSend());
    assertTrue(given.isValid(), given.report()::toString);
    assertEquals("var-DESK-1-daily-named", given.validJob().jobName().orElseThrow());
    assertFalse(composed.contains("var-DESK-1"), "values never enter the document");
  }

  @Test
  void parameterDeclarationsAreCheckedAsTheParserChecksThem() {
    WizardJob job = new WizardJob();
    WizardParameter date = declaration("business_date", "date", "2026-11-31");
    WizardParameter twice = declaration("business_date", "string", "");
    WizardParameter badName = declaration("9lives", "string", "");
    WizardParameter count = declaration("paths", "integer", "007");
    job.getParameters().addAll(List.of(date, twice, badName, count));
    WizardForm.checkParameters(job.getParameters());
    assertTrue(
        date.getErrors().get("default").contains("is not a day: November 2026 has 30 days"),
        () -> date.getErrors().toString());
    assertEquals("Parameter business_date is declared twice.", twice.getErrors().get("name"));
    assertTrue(badName.getErrors().get("name").contains("must start with a letter or _"));
    assertTrue(count.getErrors().isEmpty(), () -> count.getErrors().toString());
    assertEquals(List.of("paths"), job.getDeclared().stream().map(p -> p.getName()).toList());
    assertEquals("number", count.getInputType());
    assertEquals("date", date.getInputType());
    assertEquals("checkbox", declaration("dry", "boolean", "").getInputType());
    assertTrue(WizardStep.PARAMETERS.hasErrors(job));
  }

  @Test
  void aFieldThatRefersToAParameterIsLeftToTheServerToCheckOnceTheValueIsIn() {
    assertTrue(WizardForm.check("processes", "${ranks}").isEmpty());
    assertTrue(WizardForm.check("wallTime", "${hours}00").isEmpty());
    assertTrue(WizardForm.check("processes", "many").isPresent());
  }

  @Test
  void theServersProblemsWithParametersLandOnTheDeclarationOrNextToTheValue() {
    WizardJob job = new WizardJob();
    job.getParameters()
        .addAll(
            List.of(
                declaration("business_date", "date", "2026-11-20"),
                declaration("portfolio", "string", "")));
    WizardForm.checkParameters(job.getParameters());
    WizardProblems.place(
        job,
        List.of(
            problem(
                "JobDefinition/JobDescription/Parameters/Parameter[1]",
                "parameter business_date (date): its default '2026-11-31' is not an ISO date"),
            problem(
                "JobDefinition/JobDescription/Parameters",
                "parameter portfolio has no value and no default; give it one"),
            problem(
                "JobDefinition/JobDescription/Parameters",
                "parameter business_date (date): the value given 'notadate' is not an ISO date"),
            problem(
                "JobDefinition/JobDescription/Parameters",
                "${desk} names no declared parameter and is kept as written")));
    assertTrue(job.getParameters().get(0).getErrors().get("default").contains("its default"));
    assertTrue(job.getValueErrors().get("portfolio").contains("has no value and no default"));
    assertTrue(job.getValueErrors().get("business_date").contains("'notadate'"));
    assertTrue(job.getErrors().get("_parameters").contains("${desk}"));
    assertTrue(WizardStep.REVIEW.hasErrors(job));
  }

  private static WizardParameter declaration(String name, String type, String defaultValue) {
    WizardParameter p = new WizardParameter();
    p.set("name", name);
    p.set("type", type);
    p.set("default", defaultValue);
    return p;
  }

  private static io.gantry.server.api.Problem problem(String path, String message) {
    io.gantry.server.api.Problem p = new io.gantry.server.api.Problem();
    p.severity = message.startsWith("${") ? "WARNING" : "ERROR";
    p.path = path;
    p.message = message;
    return p;
  }

  @Test
  void theVarJobImportedThenComposedIsTheSameJob() throws Exception {
    byte[] original = Files.readAllBytes(EXAMPLES.resolve("var-job.jsdl"));
    WizardJsdlImporter.Result imported = WizardJsdlImporter.read(original, parser);
    assertTrue(imported.ok(), () -> imported.problems() + " " + imported.unsupported());
    WizardJob job = imported.job();
    assertEquals("var-${portfolio}-daily", job.value("name"));
    assertEquals("2", job.value("processes"));
    assertEquals(6, job.getPre().size());
    assertEquals(Kind.SCP, job.getPre().get(0).kind());
    assertEquals(8, job.getPost().size(), "every mcvar result file but node_pnl.csv.gz");

    String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job));
    ParseResult again = parser.parse(composed);
    assertTrue(again.isValid(), again.report()::toString);
    assertEquals(
        JsdlWriter.write(parser.parse(original).validJob()), JsdlWriter.write(again.validJob()));
  }

  @Test
  void anScpTransfersCacheValiditySurvivesTheRoundTrip() throws Exception {
    byte[] original =
        Files.readString(EXAMPLES.resolve("var-job.jsdl"))
            .replace(
                "<gx:TargetFileName>hosts.txt</gx:TargetFileName>",
                "<gx:TargetFileName>hosts.txt</gx:TargetFileName>"
                    + "<gx:CacheValidity>P1D</gx:CacheValidity>")
            .getBytes(StandardCharsets.UTF_8);
    WizardJsdlImporter.Result imported = WizardJsdlImporter.read(original, parser);
    assertTrue(imported.ok(), () -> imported.problems() + " " + imported.unsupported());
    assertEquals("P1D", imported.job().getPre().get(0).value("cacheValidity"));
    String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(imported.job()));
    assertEquals(
        JsdlWriter.write(parser.parse(original).validJob()),
        JsdlWriter.write(parser.parse(composed).validJob()));
    assertTrue(composed.contains("CacheValidity>P1D<"), composed);
  }

  @Test
  void everyExampleTheWizardCanEditSurvivesTheRoundTrip() throws Exception {
    for (String name : new String[] {"hello-mpi.jsdl", "bgl-middleware-figure2.jsdl"}) {
      byte[] original = Files.readAllBytes(EXAMPLES.resolve(name));
      WizardJsdlImporter.Result imported = WizardJsdlImporter.read(original, parser);
      if (imported.ok()) {
        String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(imported.job()));
        assertEquals(
            JsdlWriter.write(parser.parse(original).validJob()),
            JsdlWriter.write(parser.parse(composed).validJob()),
            name);
      } else {
        assertFalse(imported.unsupported().isEmpty(), name + ": refused, and says why");
      }
    }
  }

  @Test
  void aNamedApplicationJobIsComposedWithoutAProgramAndSurvivesTheRoundTrip() throws Exception {
    String named =
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"><jsdl:JobDescription>
          <jsdl:JobIdentification><jsdl:JobName>var-named</jsdl:JobName></jsdl:JobIdentification>
          <jsdl:Application><jsdl:ApplicationName>mcvar</jsdl:ApplicationName></jsdl:Application>
          <jsdl:Resources><jsdl:TotalCPUCount><jsdl:Exact>4</jsdl:Exact></jsdl:TotalCPUCount></jsdl:Resources>
        </jsdl:JobDescription></jsdl:JobDefinition>
        """;
    WizardJsdlImporter.Result imported =
        WizardJsdlImporter.read(named.getBytes(java.nio.charset.StandardCharsets.UTF_8), parser);
    assertTrue(imported.ok(), imported.unsupported()::toString);
    assertEquals("mcvar", imported.job().value("applicationName"));
    assertEquals("", imported.job().value("executable"));
    assertEquals("4", imported.job().value("processes"));
    String composed = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(imported.job()));
    ParseResult again = parser.parse(composed);
    assertTrue(again.isValid(), again.report()::toString);
    assertEquals(java.util.Optional.of("mcvar"), again.validJob().namedApplication());
    assertEquals(
        JsdlWriter.write(parser.parse(named).validJob()), JsdlWriter.write(again.validJob()));
  }

  @Test
  void aNewWizardJobRunsTheNamedApplicationMcvarAndKeepsItsVersion() throws Exception {
    WizardJob job = WizardJob.fresh();
    job.set("name", "var-named");
    job.set("applicationVersion", "1.0");
    ParseResult composed = parser.parse(WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job)));
    assertTrue(composed.isValid(), composed.report()::toString);
    assertEquals(java.util.Optional.of("mcvar"), composed.validJob().namedApplication());
    assertEquals(java.util.Optional.of("1.0"), composed.validJob().applicationVersion());
    assertTrue(
        composed.validJob().mpirunApplication().isEmpty(), "the server supplies the program");
    WizardJsdlImporter.Result imported =
        WizardJsdlImporter.read(
            WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job))
                .getBytes(StandardCharsets.UTF_8),
            parser);
    assertTrue(imported.ok(), imported.unsupported()::toString);
    assertEquals("1.0", imported.job().value("applicationVersion"));
    assertEquals("2", imported.job().value("processes"));
  }

  @Test
  void elementsTheWizardCannotEditAreNamedAndTheFileRefused() throws Exception {
    WizardJsdlImporter.Result imported =
        WizardJsdlImporter.read(Files.readAllBytes(EXAMPLES.resolve("posix-staging.jsdl")), parser);
    assertFalse(imported.ok());
    assertTrue(
        imported.unsupported().stream().anyMatch(p -> p.contains("POSIXApplication")),
        imported.unsupported()::toString);
  }

  @Test
  void anInvalidDocumentGivesLocatedProblems() {
    String broken =
        "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\">\n"
            + "  <jsdl:JobDescription><jsdl:Nonsense/></jsdl:JobDescription>\n</jsdl:JobDefinition>";
    WizardJsdlImporter.Result imported =
        WizardJsdlImporter.read(broken.getBytes(StandardCharsets.UTF_8), parser);
    assertFalse(imported.ok());
    assertTrue(
        imported.problems().stream().anyMatch(p -> p.startsWith("line 2:")),
        imported.problems()::toString);
  }

  @Test
  void serverProblemsLandNextToTheFieldsTheyName() {
    WizardJob job = new WizardJob();
    WizardStage scp = new WizardStage(Kind.SCP);
    WizardStage first = new WizardStage(Kind.SQL_QUERY);
    WizardStage second = new WizardStage(Kind.SQL_QUERY);
    job.getPre().addAll(java.util.List.of(scp, first, second));
    io.gantry.server.api.Problem statement = new io.gantry.server.api.Problem();
    statement.severity = "ERROR";
    statement.path =
        "JobDefinition/JobDescription/PreDataStaging/SQLQueryDataStaging[2]/SQLStatement";
    statement.message = "not a query";
    io.gantry.server.api.Problem processes = new io.gantry.server.api.Problem();
    processes.severity = "ERROR";
    processes.path = "JobDefinition/JobDescription/Application/MpirunApplication/NumberOfProcesses";
    processes.message = "must be at least 1";
    WizardProblems.place(job, java.util.List.of(statement, processes));
    assertEquals("not a query", second.getErrors().get("statement"));
    assertTrue(first.getErrors().isEmpty());
    assertEquals("must be at least 1", job.getErrors().get("processes"));
    assertTrue(WizardStep.PRE_STAGING.hasErrors(job));
    assertTrue(WizardStep.APPLICATION.hasErrors(job));
    assertFalse(WizardStep.IDENTIFICATION.hasErrors(job));
  }
}
