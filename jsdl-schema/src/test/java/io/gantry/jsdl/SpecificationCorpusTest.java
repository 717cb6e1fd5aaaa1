package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import io.gantry.jsdl.model.hpcpa.HPCProfileApplicationType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JSDL documents written from the specifications (GFD.56 core and POSIX, GFD.115 SPMD, GFD.111
 * HPC Profile Application, the 2005/04 draft), each pinned to its whole verdict: valid or not,
 * and every error and warning with its line:column, path and words.
 */
class SpecificationCorpusTest {
  private static final String D = "JobDefinition/JobDescription/";
  private static final String NOTHING_TO_RUN = "no application to run; give an ApplicationName the server"
      + " offers (gantry applications lists them) or exactly one of POSIXApplication, HPCProfileApplication,"
      + " SPMDApplication or MpirunApplication, or leave Application out for a job that only stages data";

  private static String foreign(String element) {
    return "unknown extension element " + element + " (namespace urn:other:grid) is ignored by Gantry";
  }

  /** A corpus document (src/test/resources/io/gantry/jsdl/corpus/) and its full report. */
  @SuppressWarnings("ArrayRecordComponent") // a test case's varargs; never compared or hashed
  record Verdict(String file, boolean valid, String... report) {
    @Override
    public String toString() {
      return file;
    }
  }

  static List<Verdict> corpus() {
    return List.of(
        new Verdict("core-empty-description.jsdl", true),
        new Verdict("core-every-optional-part.jsdl", true),
        new Verdict("staging-only.jsdl", true),
        new Verdict("hpcpa-every-part.jsdl", true,
            "line 17:9 " + D + "Application/HPCProfileApplication/UserName: UserName is not used: a job always"
                + " runs for the Gantry user who submits it"),
        new Verdict("hpcpa-ogf-namespace.jsdl", true),
        new Verdict("hpcpa-without-executable.jsdl", false,
            "line 6:7 " + D + "Application/HPCProfileApplication: Executable is missing; HPCProfileApplication"
                + " needs the program to run (or use an ApplicationName the server offers)"),
        new Verdict("posix-without-executable.jsdl", false,
            "line 7:7 " + D + "Application/POSIXApplication: Executable is missing; POSIXApplication"
                + " needs the program to run (or use an ApplicationName the server offers)"),
        new Verdict("posix-every-part.jsdl", true),
        new Verdict("spmd-every-part.jsdl", true),
        new Verdict("named-application.jsdl", true),
        new Verdict("named-application-without-version.jsdl", true),
        new Verdict("version-without-name.jsdl", false,
            "line 4:5 " + D + "Application: " + NOTHING_TO_RUN,
            "line 5:7 " + D + "Application/ApplicationVersion: ApplicationVersion without ApplicationName"
                + " names no application"),
        new Verdict("application-describes-nothing.jsdl", false,
            "line 4:5 " + D + "Application: " + NOTHING_TO_RUN),
        new Verdict("draft-2005-04.jsdl", true,
            "line 3:1 JobDefinition: the draft JSDL namespace http://schemas.ggf.org/jsdl/2005/04/jsdl is read"
                + " as http://schemas.ggf.org/jsdl/2005/11/jsdl; change the document to the JSDL 1.0 namespace"),
        new Verdict("foreign-extensions-with-xsi-type.jsdl", true,
            "line 11:7 " + D + "Application/Hint: " + foreign("Hint"),
            "line 14:7 " + D + "Resources/Accelerator: " + foreign("Accelerator"),
            "line 15:7 " + D + "Resources/Plain: " + foreign("Plain"),
            "line 17:5 " + D + "Accounting: " + foreign("Accounting")),
        new Verdict("filesystem-name-old-spelling.jsdl", true,
            "line 8:7 " + D + "DataStaging/FileSystemName: FileSystemName is Gantry's old spelling; JSDL 1.0"
                + " (GFD.56) spells it FilesystemName, which is read instead"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void eachDocumentGetsItsPinnedVerdict(Verdict verdict) throws IOException {
    ParseResult result;
    try (InputStream in = SpecificationCorpusTest.class.getResourceAsStream("corpus/" + verdict.file())) {
      result = new JsdlParser().parse(in);
    }
    List<String> report = result.report().problems().stream().map(Problem::toString).toList();
    assertEquals(List.of(verdict.report()), report, verdict.file());
    assertEquals(verdict.valid(), result.isValid(), verdict.file());
    assertEquals(verdict.valid(), result.job().isPresent(), verdict.file());
  }

  private static JsdlJob job(String file) throws IOException {
    try (InputStream in = SpecificationCorpusTest.class.getResourceAsStream("corpus/" + file)) {
      return new JsdlParser().parse(in).validJob();
    }
  }

  @Test
  void anHpcProfileApplicationIsBoundToTheModelInEitherNamespaceForm() throws IOException {
    HPCProfileApplicationType app = job("hpcpa-every-part.jsdl").hpcProfileApplication().orElseThrow();
    assertEquals("/bin/echo", app.getExecutable().getValue());
    assertEquals(List.of("hello", "world"), app.getArgument().stream().map(a -> a.getValue()).toList());
    assertEquals("LC_ALL", app.getEnvironment().get(0).getName());
    assertEquals("/bin/true",
        job("hpcpa-ogf-namespace.jsdl").hpcProfileApplication().orElseThrow().getExecutable().getValue());
  }

  @Test
  void aNamedApplicationIsOnlyANameWhenNoApplicationElementDescribesTheProgram() throws IOException {
    JsdlJob named = job("named-application.jsdl");
    assertEquals(Optional.of("mcvar"), named.namedApplication());
    assertEquals(Optional.of("1.0"), named.applicationVersion());
    assertEquals(Optional.empty(), job("named-application-without-version.jsdl").applicationVersion());
    assertEquals(Optional.empty(), job("core-every-optional-part.jsdl").namedApplication(),
        "an ApplicationName beside a POSIXApplication only labels it");
    assertEquals(Optional.of("mcvar"), job("draft-2005-04.jsdl").namedApplication());
  }

  @Test
  void aJobWithoutApplicationOnlyStagesData() throws IOException {
    assertTrue(job("staging-only.jsdl").stagingOnly());
    assertTrue(job("core-empty-description.jsdl").stagingOnly());
    assertFalse(job("named-application.jsdl").stagingOnly());
  }

  @Test
  void bothSpellingsOfFilesystemNameReachTheModelAsTheStandardOne() throws IOException {
    assertEquals("SCRATCH", job("core-every-optional-part.jsdl").dataStaging().get(0).getFilesystemName());
    assertEquals("SCRATCH", job("filesystem-name-old-spelling.jsdl").dataStaging().get(0).getFilesystemName());
  }
}
