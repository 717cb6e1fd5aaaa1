package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.model.hpcpa.HPCProfileApplicationType;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JSDL documents written from the specifications (GFD.56 core and POSIX, GFD.115 SPMD, GFD.111 HPC
 * Profile Application, the 2005/04 draft), each pinned to its whole verdict: valid or not, and
 * every error and warning with its line:column, path and words.
 */
class SpecificationCorpusTest {
  private static final String D = "JobDefinition/JobDescription/";
  private static final String NOTHING_TO_RUN =
      "no application to run; give an ApplicationName the server"
          + " offers (gantry applications lists them) or exactly one of POSIXApplication, HPCProfileApplication,"
          + " SPMDApplication or MpirunApplication, or leave Application out for a job that only stages data";

  private static String foreign(String element) {
    return "unknown extension element "
        + element
        + " (namespace urn:other:grid) is ignored by Gantry";
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
        new Verdict(
            "core-every-optional-part.jsdl",
            true,
            "line 23:7 "
                + D
                + "Resources/CandidateHosts: CandidateHosts is not used by Gantry: the compute backend chooses the hosts; the job runs without it",
            "line 28:9 "
                + D
                + "Resources/FileSystem[1]/FileSystemType: FileSystemType is not used by Gantry: file system SCRATCH is the directory the server configures for it",
            "line 31:9 "
                + D
                + "Resources/FileSystem[1]/DiskSpace: DiskSpace is not used by Gantry: file system SCRATCH is the directory the server configures for it",
            "line 34:7 "
                + D
                + "Resources/ExclusiveExecution: ExclusiveExecution is used only by compute.backend=slurm (sbatch --exclusive); other backends run the job without it",
            "line 35:7 "
                + D
                + "Resources/OperatingSystem: OperatingSystem is not used by Gantry: jobs run on the server's own operating system; the job runs without it",
            "line 40:7 "
                + D
                + "Resources/CPUArchitecture: CPUArchitecture is not used by Gantry: jobs run on the server's own CPU architecture; the job runs without it",
            "line 41:7 "
                + D
                + "Resources/IndividualCPUSpeed: IndividualCPUSpeed is not used by Gantry: no compute backend selects hosts by CPU speed; the job runs without it",
            "line 42:7 "
                + D
                + "Resources/IndividualCPUTime: IndividualCPUTime is not used by Gantry: only the wall time is limited, by WallTimeLimit or limits.wall-time; the job runs without it",
            "line 43:7 "
                + D
                + "Resources/IndividualCPUCount: IndividualCPUCount is not used by Gantry: each process takes one compute slot; TotalCPUCount sets the count; the job runs without it",
            "line 44:7 "
                + D
                + "Resources/IndividualNetworkBandwidth: IndividualNetworkBandwidth is not used by Gantry: no compute backend reserves network bandwidth; the job runs without it",
            "line 45:7 "
                + D
                + "Resources/IndividualPhysicalMemory: IndividualPhysicalMemory is used only by compute.backend=slurm (sbatch --mem); other backends run the job without it",
            "line 46:7 "
                + D
                + "Resources/IndividualVirtualMemory: IndividualVirtualMemory is not used by Gantry: no compute backend limits virtual memory; the job runs without it",
            "line 47:7 "
                + D
                + "Resources/IndividualDiskSpace: IndividualDiskSpace is not used by Gantry: the job directory's space is limited by limits.job-staged-bytes and limits.job-output-bytes; the job runs without it",
            "line 48:7 "
                + D
                + "Resources/TotalCPUTime: TotalCPUTime is not used by Gantry: only the wall time is limited, by WallTimeLimit or limits.wall-time; the job runs without it",
            "line 50:7 "
                + D
                + "Resources/TotalPhysicalMemory: TotalPhysicalMemory is not used by Gantry: only IndividualPhysicalMemory is, by compute.backend=slurm; the job runs without it",
            "line 51:7 "
                + D
                + "Resources/TotalVirtualMemory: TotalVirtualMemory is not used by Gantry: no compute backend limits virtual memory; the job runs without it",
            "line 52:7 "
                + D
                + "Resources/TotalDiskSpace: TotalDiskSpace is not used by Gantry: the job directory's space is limited by limits.job-staged-bytes and limits.job-output-bytes; the job runs without it",
            "line 53:7 "
                + D
                + "Resources/TotalResourceCount: TotalResourceCount is not used by Gantry: a job runs on the hosts its compute backend gives it; the job runs without it"),
        new Verdict("staging-only.jsdl", true),
        new Verdict(
            "hpcpa-every-part.jsdl",
            true,
            "line 17:9 "
                + D
                + "Application/HPCProfileApplication/UserName: UserName is not used: a job always"
                + " runs for the Gantry user who submits it"),
        new Verdict("hpcpa-ogf-namespace.jsdl", true),
        new Verdict(
            "hpcpa-without-executable.jsdl",
            false,
            "line 6:7 "
                + D
                + "Application/HPCProfileApplication: Executable is missing; HPCProfileApplication"
                + " needs the program to run (or use an ApplicationName the server offers)"),
        new Verdict(
            "posix-without-executable.jsdl",
            false,
            "line 7:7 "
                + D
                + "Application/POSIXApplication: Executable is missing; POSIXApplication"
                + " needs the program to run (or use an ApplicationName the server offers)"),
        new Verdict(
            "named-application-posix-without-executable.jsdl",
            true,
            "line 9:7 "
                + D
                + "Application/POSIXApplication: POSIXApplication has no Executable:"
                + " ApplicationName mcvar names the program, resolved by the server when the job is"
                + " validated or submitted (gantry applications lists what it offers); the"
                + " POSIXApplication's other settings are not used"),
        new Verdict("posix-every-part.jsdl", true),
        new Verdict("spmd-every-part.jsdl", true),
        new Verdict("named-application.jsdl", true),
        new Verdict("named-application-without-version.jsdl", true),
        new Verdict(
            "version-without-name.jsdl",
            false,
            "line 4:5 " + D + "Application: " + NOTHING_TO_RUN,
            "line 5:7 "
                + D
                + "Application/ApplicationVersion: ApplicationVersion without ApplicationName"
                + " names no application"),
        new Verdict(
            "application-describes-nothing.jsdl",
            false,
            "line 4:5 " + D + "Application: " + NOTHING_TO_RUN),
        new Verdict(
            "draft-2005-04.jsdl",
            true,
            "line 3:1 JobDefinition: the draft JSDL namespace http://schemas.ggf.org/jsdl/2005/04/jsdl is read"
                + " as http://schemas.ggf.org/jsdl/2005/11/jsdl; change the document to the JSDL 1.0 namespace"),
        new Verdict(
            "foreign-extensions-with-xsi-type.jsdl",
            true,
            "line 11:7 " + D + "Application/Hint: " + foreign("Hint"),
            "line 14:7 " + D + "Resources/Accelerator: " + foreign("Accelerator"),
            "line 15:7 " + D + "Resources/Plain: " + foreign("Plain"),
            "line 17:5 " + D + "Accounting: " + foreign("Accounting")),
        new Verdict(
            "filesystem-name-old-spelling.jsdl",
            true,
            "line 8:7 "
                + D
                + "DataStaging/FileSystemName: FileSystemName is Gantry's old spelling; JSDL 1.0"
                + " (GFD.56) spells it FilesystemName, which is read instead"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void eachDocumentGetsItsPinnedVerdict(Verdict verdict) throws IOException {
    ParseResult result;
    try (InputStream in =
        SpecificationCorpusTest.class.getResourceAsStream("corpus/" + verdict.file())) {
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
    HPCProfileApplicationType app =
        job("hpcpa-every-part.jsdl").hpcProfileApplication().orElseThrow();
    assertEquals("/bin/echo", app.getExecutable().getValue());
    assertEquals(
        List.of("hello", "world"), app.getArgument().stream().map(a -> a.getValue()).toList());
    assertEquals("LC_ALL", app.getEnvironment().get(0).getName());
    assertEquals(
        "/bin/true",
        job("hpcpa-ogf-namespace.jsdl")
            .hpcProfileApplication()
            .orElseThrow()
            .getExecutable()
            .getValue());
  }

  @Test
  void aNamedApplicationIsOnlyANameWhenNoApplicationElementDescribesTheProgram()
      throws IOException {
    JsdlJob named = job("named-application.jsdl");
    assertEquals(Optional.of("mcvar"), named.namedApplication());
    assertEquals(Optional.of("1.0"), named.applicationVersion());
    assertEquals(
        Optional.empty(), job("named-application-without-version.jsdl").applicationVersion());
    assertEquals(
        Optional.empty(),
        job("core-every-optional-part.jsdl").namedApplication(),
        "an ApplicationName beside a POSIXApplication only labels it");
    assertEquals(Optional.of("mcvar"), job("draft-2005-04.jsdl").namedApplication());
    JsdlJob unicore = job("named-application-posix-without-executable.jsdl");
    assertEquals(
        Optional.of("mcvar"),
        unicore.namedApplication(),
        "a POSIXApplication without Executable leaves the name to say what runs");
    assertTrue(unicore.posixApplication().isEmpty());
  }

  @Test
  void aJobWithoutApplicationOnlyStagesData() throws IOException {
    assertTrue(job("staging-only.jsdl").stagingOnly());
    assertTrue(job("core-empty-description.jsdl").stagingOnly());
    assertFalse(job("named-application.jsdl").stagingOnly());
  }

  @Test
  void bothSpellingsOfFilesystemNameReachTheModelAsTheStandardOne() throws IOException {
    assertEquals(
        "SCRATCH", job("core-every-optional-part.jsdl").dataStaging().get(0).getFilesystemName());
    assertEquals(
        "SCRATCH",
        job("filesystem-name-old-spelling.jsdl").dataStaging().get(0).getFilesystemName());
  }
}
