package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.soap.RiskDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry-server check}: a configuration tested without starting the server, against a real
 * database (H2 over TCP): every data source's account, identities, TLS and the job store.
 */
class CheckCommandTest {
  private record Run(int code, String out, String err) {}

  @TempDir Path dir;

  private static Run run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int code = new CommandLine(new GantryServerCommand()).execute(args);
      return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  private Path config(Map<String, String> settings) throws Exception {
    String text =
        settings.entrySet().stream()
            .map(s -> s.getKey() + "=" + s.getValue())
            .collect(Collectors.joining("\n"));
    return Files.writeString(dir.resolve("gantry-server.properties"), text + "\n");
  }

  private Path secretFile(String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  @Test
  void aGoodConfigurationPassesEveryCheck() throws Exception {
    RiskDatabase risk = RiskDatabase.h2File(dir);
    Run r =
        run(
            "check",
            "--config",
            config(risk.dataSourceSettings()).toString(),
            "--data-dir",
            dir.resolve("data").toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("ok    data source 'risk' as "), r.out());
    assertTrue(r.out().contains("ok    job store"), r.out());
    assertTrue(r.out().endsWith("all checks passed\n"), r.out());
    assertFalse(r.out().contains("FAIL"), r.out());
  }

  @Test
  void onSlurmAJobDirectoriesRootTheJobAccountCannotReachIsNamed() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    Path locked = Files.createDirectory(dir.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> settings = new java.util.HashMap<>();
    settings.put("compute.backend", "slurm");
    settings.put("staging.root", locked.resolve("jobs").toString());
    settings.put("jobs.default-os-account", "gantry-test-alice");
    Run r =
        run(
            "check",
            "--config",
            config(settings).toString(),
            "--data-dir",
            dir.resolve("data").toString());
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(
        r.out()
            .contains(
                "FAIL  job directories "
                    + locked.resolve("jobs")
                    + " for OS account gantry-test-alice"),
        r.out());
    assertTrue(r.out().contains("it may not enter " + locked + " (mode rwx------)"), r.out());
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx--x--x"));
    Run again =
        run(
            "check",
            "--config",
            config(settings).toString(),
            "--data-dir",
            dir.resolve("data").toString());
    assertTrue(
        again.out().contains("ok    job directories " + locked.resolve("jobs")), again.out());
  }

  @Test
  void aWrongPasswordAndAFileThatIsNoKeyAreEachNamedAndTheExitCodeIsOne() throws Exception {
    RiskDatabase risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new java.util.HashMap<>(risk.dataSourceSettings());
    String url = settings.get("datasource.risk.url");
    settings.put("datasource.wrong.url", url);
    settings.put("datasource.wrong.user", settings.get("datasource.risk.user"));
    settings.put(
        "datasource.wrong.password-file",
        secretFile("wrong-password", "not-the-password").toString());
    settings.put("identity.archive.key-file", secretFile("not-a-key", "hello\n").toString());
    Run r =
        run(
            "check",
            "--config",
            config(settings).toString(),
            "--data-dir",
            dir.resolve("data").toString());
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("ok    data source 'risk' as "), r.out());
    assertTrue(
        r.out().contains("FAIL  data source 'wrong' as ")
            && r.out().contains("the database refused the login"),
        r.out());
    assertTrue(
        r.out().contains("FAIL  SSH identity 'archive': ")
            && r.out().contains("holds no private key"),
        r.out());
    assertFalse(r.out().contains("not-the-password"), "no secret is printed: " + r.out());
    assertTrue(r.out().endsWith("2 check(s) failed\n"), r.out());
  }

  @Test
  void aBadSettingIsExitCodeTwo() throws Exception {
    Run r =
        run(
            "check",
            "--config",
            config(Map.of("listen.port", "70000")).toString(),
            "--data-dir",
            dir.resolve("data").toString());
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("FAIL  settings: ") && r.out().contains("listen.port"), r.out());
  }
}
