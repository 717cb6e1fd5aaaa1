package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ValidateCommandTest {
  static final Path EXAMPLES = Path.of("../jsdl-schema/examples");
  static final String BROKEN =
      """
      <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl" xmlns:gx="urn:gantry:jsdl:ext:1">
        <jsdl:JobDescription>
          <jsdl:Application>
            <gx:MpirunApplication>
              <gx:Executable>/bin/hostname</gx:Executable>
              <gx:NumberOfProcesses>0</gx:NumberOfProcesses>
            </gx:MpirunApplication>
          </jsdl:Application>
        </jsdl:JobDescription>
      </jsdl:JobDefinition>
      """;

  @TempDir Path dir;

  /** What one run of the command printed, and its exit code. */
  record Run(int exitCode, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine gantry = GantryCommand.commandLine();
    gantry.setOut(new PrintWriter(out, true));
    gantry.setErr(new PrintWriter(err, true));
    int exitCode = gantry.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  @Test
  void everyExampleIsOk() {
    Path hello = EXAMPLES.resolve("hello-mpi.jsdl");
    Path posix = EXAMPLES.resolve("posix-staging.jsdl");
    Path var = EXAMPLES.resolve("var-job.jsdl");
    Run run = run("validate", hello.toString(), posix.toString(), var.toString());
    String r = "  warning: line %d:7 JobDefinition/JobDescription/Resources/%s\n";
    // posix-staging.jsdl carries the Resources a job from another grid system may ask for
    String posixWarnings =
        r.formatted(
                25,
                "OperatingSystem: OperatingSystem is not used by Gantry: jobs run on the"
                    + " server's own operating system; the job runs without it")
            + r.formatted(
                30,
                "CPUArchitecture: CPUArchitecture is not used by Gantry: jobs run on the server's own CPU"
                    + " architecture; the job runs without it")
            + r.formatted(
                33,
                "IndividualCPUSpeed: IndividualCPUSpeed is not used by Gantry: no compute backend selects"
                    + " hosts by CPU speed; the job runs without it")
            + r.formatted(
                39,
                "IndividualPhysicalMemory: IndividualPhysicalMemory is used only by compute.backend=slurm"
                    + " (sbatch --mem); other backends run the job without it");
    assertEquals(
        new Run(0, "OK " + hello + "\nOK " + posix + "\n" + posixWarnings + "OK " + var + "\n", ""),
        run);
  }

  @Test
  void warningsAreListedBeneathOk() {
    Path figure2 = EXAMPLES.resolve("bgl-middleware-figure2.jsdl");
    Run run = run("validate", figure2.toString());
    assertEquals(0, run.exitCode());
    assertEquals(
        "OK "
            + figure2
            + "\n  warning: line 16:1 JobDefinition: the draft JSDL namespace"
            + " http://schemas.ggf.org/jsdl/2005/04/jsdl is read as http://schemas.ggf.org/jsdl/2005/11/jsdl;"
            + " change the document to the JSDL 1.0 namespace\n",
        run.out());
  }

  @Test
  void aPosixApplicationWithoutExecutableBesideAnApplicationNameIsOkAndLeftToTheServer()
      throws IOException {
    Path unicore =
        Files.writeString(
            dir.resolve("unicore.jsdl"),
            """
            <JobDefinition xmlns="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix">
              <JobDescription>
                <Application>
                  <ApplicationName>Date</ApplicationName>
                  <posix:POSIXApplication/>
                </Application>
              </JobDescription>
            </JobDefinition>
            """);
    Run run = run("validate", unicore.toString());
    assertEquals(0, run.exitCode(), run.toString());
    assertTrue(run.out().startsWith("OK " + unicore + "\n"), run.out());
    assertTrue(
        run.out().contains("ApplicationName Date names the program, resolved by the server"),
        run.out());
    assertTrue(
        run.out().contains("note: ApplicationName Date is resolved by the server"), run.out());
  }

  @Test
  void anInvalidJobGetsTheLineColumnReportAndExitCode1() throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.jsdl"), BROKEN);
    Run run = run("validate", EXAMPLES.resolve("hello-mpi.jsdl").toString(), broken.toString());
    assertEquals(1, run.exitCode());
    assertEquals(
        "OK "
            + EXAMPLES.resolve("hello-mpi.jsdl")
            + "\n"
            + broken
            + ": INVALID\n"
            + "  line 6:9 JobDefinition/JobDescription/Application/MpirunApplication/NumberOfProcesses:"
            + " must be at least 1, not 0\n",
        run.out());
  }

  @Test
  void anUnreadableFileIsExitCode2AndTheOthersAreStillChecked() throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.jsdl"), BROKEN);
    Path missing = dir.resolve("missing.jsdl");
    Run run = run("validate", missing.toString(), broken.toString(), dir.toString());
    assertEquals(2, run.exitCode());
    assertTrue(run.out().startsWith(broken + ": INVALID\n"), run.out());
    assertEquals(
        "gantry validate: "
            + missing
            + ": no such file\n"
            + "gantry validate: "
            + dir
            + ": cannot read: Is a directory\n",
        run.err());
  }

  @Test
  void usageErrorsAreExitCode2() {
    assertEquals(2, run("validate").exitCode());
    assertEquals(2, run().exitCode());
    assertEquals(2, run("frobnicate").exitCode());
  }

  @Test
  void versionAndHelpSucceed() {
    Run version = run("--version");
    assertEquals(0, version.exitCode());
    assertTrue(version.out().startsWith("gantry "), version.out());
    Run help = run("--help");
    assertEquals(0, help.exitCode());
    assertTrue(help.out().contains("validate"), help.out());
  }
}
