package io.gantry.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MpirunCommandTest {
  private static final DispatcherConfig CONFIG =
      new DispatcherConfig(
          "/usr/bin/mpirun", List.of("--tag-output"), true, Duration.ofSeconds(5), List.of("PATH"));

  private static LaunchSpec.Builder spec() {
    return LaunchSpec.builder("job1", ProgramKind.MPI, "/opt/bin/mcvar")
        .workingDirectory(Path.of("/jobs/job1"))
        .output(Path.of("/jobs/job1/out"), Path.of("/jobs/job1/err"));
  }

  @Test
  void argvListsEverySettingInMpirunOrderWithTheProgramLast() {
    LaunchSpec s =
        spec()
            .processes(4)
            .hostFile(Path.of("/etc/hosts.mpi"))
            .extraMpirunOptions("--bind-to", "core")
            .environment("B", "2")
            .environment("A", "1")
            .arguments("--scenarios", "10000", "a b; rm -rf /")
            .build();
    assertEquals(
        List.of(
            "/usr/bin/mpirun",
            "--tag-output",
            "-np",
            "4",
            "--hostfile",
            "/etc/hosts.mpi",
            "--oversubscribe",
            "--bind-to",
            "core",
            "-x",
            "A",
            "-x",
            "B",
            "--wdir",
            "/jobs/job1",
            "/opt/bin/mcvar",
            "--scenarios",
            "10000",
            "a b; rm -rf /"),
        new MpirunCommand(CONFIG).argv(s));
  }

  @Test
  void independentRanksKeepRunningWhenOneDiesAndOnlyThey() {
    MpirunCommand command = new MpirunCommand(CONFIG);
    List<String> farm = command.argv(spec().processes(4).independentRanks(true).build());
    assertEquals(
        List.of(
            "/usr/bin/mpirun",
            "--tag-output",
            "-np",
            "4",
            "--oversubscribe",
            "--enable-recovery",
            "--wdir",
            "/jobs/job1",
            "/opt/bin/mcvar"),
        farm);
    assertFalse(command.argv(spec().processes(4).build()).contains("--enable-recovery"));
    // a job cannot ask for it: only the server sets it, for a farm's or session's launchers
    assertThrows(
        IllegalArgumentException.class,
        () -> command.argv(spec().extraMpirunOptions("--enable-recovery").build()));
  }

  @Test
  void environmentValuesTravelInTheEnvironmentNeverOnTheCommandLine() {
    LaunchSpec s = spec().environment("DB_PASSWORD", "s3cret-value").build();
    MpirunCommand command = new MpirunCommand(CONFIG);
    assertFalse(String.join(" ", command.argv(s)).contains("s3cret-value"));
    assertTrue(command.argv(s).containsAll(List.of("-x", "DB_PASSWORD")));
  }

  @Test
  void aSpecPrintedToALogShowsVariableNamesButNotTheirValues() {
    String text = spec().environment("DB_PASSWORD", "s3cret-value").build().toString();
    assertTrue(text.contains("DB_PASSWORD"), text);
    assertFalse(text.contains("s3cret-value"), text);
  }

  @Test
  void placementAndTransportOptionsAreAccepted() {
    MpirunCommand command = new MpirunCommand(CONFIG);
    command.argv(
        spec()
            .extraMpirunOptions(
                "-bind-to",
                "none",
                "--map-by",
                "ppr:2:node",
                "--mca",
                "btl",
                "self,tcp",
                "--mca",
                "btl_tcp_if_include",
                "lo",
                "-v")
            .build());
  }

  @Test
  void optionsThatRunOtherProgramsOrOverrideTheSpecAreRefused() {
    MpirunCommand command = new MpirunCommand(CONFIG);
    for (List<String> bad :
        List.of(
            List.of("--prefix", "/tmp/evil"),
            List.of("--launch-agent", "/tmp/evil"),
            List.of("--mca", "plm_rsh_agent", "/tmp/evil"),
            List.of("-mca", "orte_launch_agent", "/tmp/evil"),
            List.of("--app", "/tmp/appfile"),
            List.of("-x", "LD_PRELOAD"),
            List.of("--hostfile", "/tmp/h"),
            List.of("--wdir", "/"),
            List.of("--output-filename", "/tmp/o"),
            List.of("--allow-run-as-root"))) {
      LaunchSpec s = spec().extraMpirunOptions(bad.toArray(String[]::new)).build();
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> command.argv(s));
      assertTrue(e.getMessage().contains("job1"), e.getMessage());
    }
  }

  @Test
  void aStrayWordCannotBecomeTheProgramMpirunRuns() {
    MpirunCommand command = new MpirunCommand(CONFIG);
    LaunchSpec stray = spec().extraMpirunOptions("--bind-to", "core", "/tmp/evil").build();
    assertThrows(IllegalArgumentException.class, () -> command.argv(stray));
    LaunchSpec missingValue = spec().extraMpirunOptions("--map-by").build();
    assertThrows(IllegalArgumentException.class, () -> command.argv(missingValue));
    LaunchSpec optionAsValue = spec().extraMpirunOptions("--bind-to", "--prefix").build();
    assertThrows(IllegalArgumentException.class, () -> command.argv(optionAsValue));
  }

  @Test
  void optionsWithLineBreaksOrNulAreRefused() {
    MpirunCommand command = new MpirunCommand(CONFIG);
    assertThrows(
        IllegalArgumentException.class,
        () -> command.argv(spec().extraMpirunOptions("--bind-to", "core\n--prefix").build()));
    assertThrows(
        IllegalArgumentException.class,
        () -> command.argv(spec().extraMpirunOptions("-v\0").build()));
  }

  @Test
  void jobsMayNotConfigureOpenMpiOrTheLoaderThroughTheEnvironment() {
    for (String name :
        List.of(
            "OMPI_MCA_plm_rsh_agent",
            "LD_PRELOAD",
            "PATH",
            "HOME",
            "PMIX_MCA_x",
            "MALLOC_CHECK_")) {
      LaunchSpec s = spec().environment(name, "/tmp/evil").build();
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> new MpirunCommand(CONFIG).argv(s));
      assertTrue(e.getMessage().contains(name), e.getMessage());
    }
  }

  @Test
  void anExecutableThatLooksLikeAnOptionIsRefused() {
    LaunchSpec s =
        LaunchSpec.builder("job1", ProgramKind.MPI, "--prefix")
            .workingDirectory(Path.of("/"))
            .output(Path.of("o"), Path.of("e"))
            .build();
    assertThrows(IllegalArgumentException.class, () -> new MpirunCommand(CONFIG).argv(s));
  }

  @Test
  void specRejectsBadEnvironmentNamesAndProcessCounts() {
    assertThrows(IllegalArgumentException.class, () -> spec().environment("A=B", "x").build());
    assertThrows(IllegalArgumentException.class, () -> spec().processes(0).build());
    assertThrows(IllegalArgumentException.class, () -> spec().wallTimeLimit(Duration.ZERO).build());
    assertThrows(IllegalArgumentException.class, () -> spec().arguments("a\0b").build());
  }
}
