package io.gantry.testing.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entry scripts write configuration files (slurm.conf, sshd_config) that have no quoting: a
 * value with a space or a line break would add a setting of the caller's choice. Each script
 * refuses such values before writing anything or starting a daemon.
 */
class EntryScriptsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path dir;

  @Test
  void slurmConfRefusesANodeAddressThatWouldAddASetting() {
    CommandResult result = slurmConf("--node", "n1=10.0.0.1\nSlurmUser=nobody");
    assertEquals(2, result.exitCode());
    assertTrue(
        result.stderr().contains("--node: not a plain name, address or path"), result.stderr());
    assertFalse(Files.exists(dir.resolve("conf/slurm.conf")));
  }

  @Test
  void slurmConfRefusesAPathWithASpace() {
    CommandResult result =
        slurmConf("--node", "n1=10.0.0.1", "--state-dir", "/tmp/a ProctrackType=x");
    assertEquals(2, result.exitCode());
    assertTrue(result.stderr().contains("--state-dir"), result.stderr());
    assertFalse(Files.exists(dir.resolve("conf/slurm.conf")));
  }

  @Test
  void slurmConfWritesOneNodeLinePerNodeAndAKeyOnlyRootCanRead() throws IOException {
    slurmConf(
            "--node",
            "n1=10.0.0.11",
            "--node",
            "n2=node2.example",
            "--munge-key",
            dir.resolve("key").toString())
        .orThrow();
    List<String> conf = Files.readAllLines(dir.resolve("conf/slurm.conf"));
    assertEquals(
        List.of(
            "NodeName=n1 NodeAddr=10.0.0.11 CPUs=2 RealMemory=1024 State=UNKNOWN",
            "NodeName=n2 NodeAddr=node2.example CPUs=2 RealMemory=1024 State=UNKNOWN"),
        conf.stream().filter(l -> l.startsWith("NodeName=")).toList());
    assertEquals(1024, Files.size(dir.resolve("key")));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("key"))));
  }

  @Test
  void sshdRefusesAListenAddressThatWouldAddASetting() throws IOException {
    Path keys = Files.writeString(dir.resolve("authorized_keys"), "");
    CommandResult result =
        Commands.run(
            List.of(
                script("sshd.sh"),
                "--conf",
                dir.resolve("sshd").toString(),
                "--host-key",
                dir.resolve("hk").toString(),
                "--authorized-keys",
                keys.toString(),
                "--user",
                "root",
                "--listen",
                "0.0.0.0\nPermitRootLogin yes"),
            TIMEOUT);
    assertEquals(2, result.exitCode());
    assertTrue(result.stderr().contains("not a plain path, name or address"), result.stderr());
    assertFalse(Files.exists(dir.resolve("sshd/sshd_config")));
  }

  @Test
  void sshdRefusesASessionVariableWithoutAName() throws IOException {
    Path keys = Files.writeString(dir.resolve("authorized_keys"), "");
    CommandResult result =
        Commands.run(
            List.of(
                script("sshd.sh"),
                "--conf",
                dir.resolve("sshd").toString(),
                "--host-key",
                dir.resolve("hk").toString(),
                "--authorized-keys",
                keys.toString(),
                "--user",
                "root",
                "--setenv",
                "=x"),
            TIMEOUT);
    assertEquals(2, result.exitCode());
    assertTrue(result.stderr().contains("--setenv: expected NAME=VALUE"), result.stderr());
  }

  @Test
  void aHostNameThatIsNotOneIsRefusedBeforeAnythingStarts() {
    CommandResult result =
        Commands.run(
            List.of(script("slurmctld.sh"), "--conf", conf(), "--hostname", "x;reboot"), TIMEOUT);
    assertEquals(2, result.exitCode());
    assertTrue(result.stderr().contains("--hostname: not a host name"), result.stderr());
  }

  @Test
  void slurmdRefusesANodeNameThatIsNotInSlurmConf() {
    CommandResult result =
        Commands.run(List.of(script("slurmd.sh"), "--conf", conf(), "--node", "n9"), TIMEOUT);
    assertEquals(2, result.exitCode());
    assertTrue(result.stderr().contains("has no NodeName=n9"), result.stderr());
    CommandResult odd =
        Commands.run(List.of(script("slurmd.sh"), "--conf", conf(), "--node", "n1 -c"), TIMEOUT);
    assertTrue(odd.stderr().contains("--node: not a node name"), odd.stderr());
  }

  @Test
  void aDetachedDaemonNeedsAPidFile() {
    CommandResult result =
        Commands.run(
            List.of(
                script("munged.sh"),
                "--key",
                "/dev/null",
                "--socket",
                "/tmp/x",
                "--state-dir",
                "/tmp/y",
                "--detach",
                dir.resolve("log").toString()),
            TIMEOUT);
    assertEquals(2, result.exitCode());
    assertTrue(result.stderr().contains("--detach needs --pid-file"), result.stderr());
  }

  private String conf() {
    slurmConf("--node", "n1=10.0.0.11").orThrow();
    return dir.resolve("conf").toString();
  }

  private CommandResult slurmConf(String... extra) {
    List<String> command =
        new ArrayList<>(
            List.of(
                script("slurm-conf.sh"),
                "--out",
                dir.resolve("conf").toString(),
                "--controller",
                "login=10.0.0.1",
                "--munge-socket",
                "/run/munge/socket",
                "--state-dir",
                "/var/spool/slurm"));
    command.addAll(List.of(extra));
    return Commands.run(command, TIMEOUT);
  }

  private static String script(String name) {
    return Tools.repositoryRoot().resolve("docker/entrypoints").resolve(name).toString();
  }
}
