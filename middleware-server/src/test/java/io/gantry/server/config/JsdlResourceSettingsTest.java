package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application.ID.* and filesystem.NAME.path settings: read, defaulted, and checked when loaded.
 */
class JsdlResourceSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("data.dir", dir.toString());
    return new ServerConfigLoader().load(null, all);
  }

  private String refusal(Map<String, String> settings) {
    return assertThrows(ConfigException.class, () -> load(settings)).getMessage();
  }

  @Test
  void anApplicationIsReadWithItsDefaults() {
    ServerConfig config =
        load(
            Map.of(
                "application.mcvar.executable",
                "/opt/gantry/bin/mcvar",
                "application.mcvar.kind",
                "mpirun",
                "application.mcvar.processes",
                "4",
                "application.mcvar.version",
                "1.2",
                "application.mcvar.arguments",
                "--out-dir results",
                "application.mcvar.users",
                "alice, bob"));
    NamedApplication app = config.jsdlResources().applications().get(0);
    assertEquals(
        new NamedApplication(
            "mcvar",
            "mcvar",
            "1.2",
            NamedApplication.Kind.MPIRUN,
            "/opt/gantry/bin/mcvar",
            List.of("--out-dir", "results"),
            4,
            Set.of("alice", "bob"),
            ""),
        app);
    assertTrue(app.allows("alice"));
    assertFalse(app.allows("mallory"));
    NamedApplication plain =
        load(Map.of("application.date.executable", "/bin/date"))
            .jsdlResources()
            .applications()
            .get(0);
    assertEquals(NamedApplication.Kind.POSIX, plain.kind());
    assertEquals("", plain.version());
    assertTrue(plain.allows("anyone"), "no users setting: every user");
  }

  @Test
  void anApplicationWithoutExecutableIsRefusedNamingTheSetting() {
    assertEquals(
        "setting 'application.mcvar.executable': is required: the program application mcvar runs",
        refusal(Map.of("application.mcvar.version", "1.0")));
  }

  @Test
  void anUnknownKindAndAPosixApplicationOnSeveralProcessesAreRefused() {
    assertEquals(
        "setting 'application.x.kind': must be mpirun or posix, not slurm",
        refusal(Map.of("application.x.executable", "/bin/true", "application.x.kind", "slurm")));
    assertEquals(
        "setting 'application.x.processes': a posix application runs one process; set kind=mpirun for 4",
        refusal(Map.of("application.x.executable", "/bin/true", "application.x.processes", "4")));
  }

  @Test
  void twoApplicationsWithOneNameAndVersionAreRefused() {
    assertEquals(
        "setting 'application.b.version': another application is already x 1.0; give each version of x"
            + " its own application.ID with its own version",
        refusal(
            Map.of(
                "application.a.name",
                "x",
                "application.a.version",
                "1.0",
                "application.a.executable",
                "/bin/true",
                "application.b.name",
                "x",
                "application.b.version",
                "1.0",
                "application.b.executable",
                "/bin/true")));
  }

  @Test
  void aFileSystemMustBeAnExistingDirectory() throws Exception {
    Path scratch = Files.createDirectories(dir.resolve("scratch"));
    assertEquals(
        Map.of("SCRATCH", scratch),
        load(Map.of("filesystem.SCRATCH.path", scratch.toString())).jsdlResources().fileSystems());
    assertEquals(
        "setting 'filesystem.HOME.path': "
            + dir.resolve("missing")
            + " is not a directory; create it or"
            + " correct the path",
        refusal(Map.of("filesystem.HOME.path", dir.resolve("missing").toString())));
  }

  @Test
  void aFileSystemIsReadWriteUnlessSetReadOnlyAndNeedsItsPath() throws Exception {
    Path ref = Files.createDirectories(dir.resolve("ref"));
    Path scratch = Files.createDirectories(dir.resolve("scratch2"));
    ServerConfig.JsdlResources resources =
        load(Map.of(
                "filesystem.REF.path",
                ref.toString(),
                "filesystem.REF.read-only",
                "true",
                "filesystem.SCRATCH.path",
                scratch.toString()))
            .jsdlResources();
    assertEquals(java.util.Set.of("REF"), resources.readOnlyFileSystems());
    assertEquals(java.util.Set.of(), resources.stagingWritableFileSystems());
    assertEquals(
        java.util.Set.of("REF"),
        load(Map.of(
                "filesystem.REF.path",
                ref.toString(),
                "filesystem.REF.read-only",
                "true",
                "filesystem.REF.staging-writes",
                "true"))
            .jsdlResources()
            .stagingWritableFileSystems(),
        "staging writes a read-only file system only where the operator says so");
    assertEquals(
        "setting 'filesystem.REF.read-only': 'maybe' is not true or false",
        refusal(
            Map.of("filesystem.REF.path", ref.toString(), "filesystem.REF.read-only", "maybe")));
    assertEquals(
        "setting 'filesystem.TAPE.path': is required: the directory behind file system TAPE",
        refusal(Map.of("filesystem.TAPE.read-only", "true")));
  }

  @Test
  void aMisspeltApplicationSettingIsRefused() {
    assertEquals(
        "setting 'application.x.executabel': unknown setting; did you mean application.x.executable?",
        refusal(Map.of("application.x.executabel", "/bin/true")));
  }
}
