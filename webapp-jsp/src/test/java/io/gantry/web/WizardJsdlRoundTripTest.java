package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.JsdlWriter;
import io.gantry.jsdl.ParseResult;
import io.gantry.web.WizardStage.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The wizard's JSDL importer and composer, without a server. */
class WizardJsdlRoundTripTest {
  static final Path EXAMPLES = Path.of("..", "jsdl-schema", "examples");
  private final JsdlParser parser = new JsdlParser();

  @Test
  void aJobTemplateIsNotReadIntoTheWizardWhichWouldDropItsParameters() throws Exception {
    byte[] template = Files.readAllBytes(EXAMPLES.resolve("var-job-named.jsdl"));
    WizardJsdlImporter.Result imported = WizardJsdlImporter.read(template, parser);
    assertFalse(imported.ok());
    assertEquals(java.util.List.of(WizardJsdlImporter.TEMPLATE), imported.problems());
  }

  @Test
  void theVarJobImportedThenComposedIsTheSameJob() throws Exception {
    byte[] original = Files.readAllBytes(EXAMPLES.resolve("var-job.jsdl"));
    WizardJsdlImporter.Result imported = WizardJsdlImporter.read(original, parser);
    assertTrue(imported.ok(), () -> imported.problems() + " " + imported.unsupported());
    WizardJob job = imported.job();
    assertEquals("var-desk-1-daily", job.value("name"));
    assertEquals("2", job.value("processes"));
    assertEquals(6, job.getPre().size());
    assertEquals(Kind.SCP, job.getPre().get(0).kind());
    assertEquals(3, job.getPost().size());

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
