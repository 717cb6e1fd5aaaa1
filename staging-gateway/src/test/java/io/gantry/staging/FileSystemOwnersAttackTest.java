package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gantry.staging.UriTransfer.Direction;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Staging into and out of JSDL file systems and {@code file:} roots as the job's OS account, with
 * the real accounts gantry-test-alice and gantry-test-bob (scripts/create-test-accounts): the
 * attacks an ordinary user made on a shared 1777 file system and on a read-only one, each of which
 * worked while the server staged these files as root, and alice's own files still staging both
 * ways.
 */
class FileSystemOwnersAttackTest {
  private static final String ALICE = "gantry-test-alice";
  private static final String BOB = "gantry-test-bob";

  @TempDir Path jobDir;
  Path base;
  Path scratch; // 1777, like /scratch: every account may create, only owners replace
  Path team; // 0777 without the sticky bit: the kernel alone would let alice replace bob's file
  Path reference; // root's 0755, jobs see it read-only
  Path drop; // a file: root, 1777
  FileAccount alice;
  FileAccount bob;

  @BeforeEach
  void directories() throws IOException {
    alice = account(ALICE);
    bob = account(BOB);
    // owner-only above the file systems: as a job's program, which sees them bound at /fs/NAME,
    // staging needs rights inside them only
    base = Files.createTempDirectory("gantry-fs-owners-");
    mode(base, "rwx------");
    scratch = Files.createDirectory(base.resolve("scratch"));
    Files.setAttribute(scratch, "unix:mode", 01777);
    team = Files.createDirectory(base.resolve("team"));
    Files.setAttribute(team, "unix:mode", 0777);
    reference = Files.createDirectory(base.resolve("reference"));
    mode(reference, "rwxr-xr-x");
    drop = Files.createDirectory(base.resolve("drop"));
    Files.setAttribute(drop, "unix:mode", 01777);
  }

  @AfterEach
  void removeBase() throws IOException {
    try (Stream<Path> all = Files.walk(base)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Test
  void bobsPrivateFileInAStickyFileSystemIsNotReadThroughAlicesStageOutOrStageIn()
      throws Exception {
    Path secret = ownedFile(scratch.resolve("bob-secret.csv"), bob, "rw-------", "bob's secret\n");
    NamedFileSystem fs = new NamedFileSystem("SCRATCH", scratch).as(alice);

    StagingException out =
        assertThrows(
            StagingException.class,
            () ->
                stageOut(
                    new UriTransfer(
                            1,
                            Direction.OUT,
                            URI.create("file://" + drop.resolve("leak.csv")),
                            "bob-secret.csv",
                            CreationFlag.OVERWRITE,
                            null,
                            null,
                            fs)
                        .as(alice)));
    assertTrue(out.getMessage().contains("Permission denied"), out.getMessage());
    assertFalse(Files.exists(drop.resolve("leak.csv")), "nothing of bob's left the file system");

    // the same file named as a file: URI (the scratch directory made a file root)
    StagingException in =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    new UriStagingPolicy(List.of(scratch), null, null),
                    new UriTransfer(
                            1,
                            Direction.IN,
                            URI.create("file://" + secret),
                            "stolen.csv",
                            CreationFlag.OVERWRITE,
                            null,
                            null)
                        .as(alice)));
    assertTrue(in.getMessage().contains("Permission denied"), in.getMessage());
    assertFalse(Files.exists(jobDir.resolve("stolen.csv")));
    assertUnchanged(secret, bob, 0600, "bob's secret\n");
  }

  @Test
  void alicesOverwriteOfBobsFileIsRefusedAndBobsFileStaysHis() throws Exception {
    Path source = ownedFile(drop.resolve("alice-rows.csv"), alice, "rw-r--r--", "alice's rows\n");
    for (Path dir : List.of(scratch, team)) {
      Path bobs = ownedFile(dir.resolve("positions.csv"), bob, "rw-r--r--", "bob's rows\n");
      NamedFileSystem fs = new NamedFileSystem("SHARED", dir).as(alice);
      StagingException e =
          assertThrows(
              StagingException.class,
              () ->
                  stageIn(
                      new UriStagingPolicy(List.of(drop), null, null),
                      new UriTransfer(
                              1,
                              Direction.IN,
                              URI.create("file://" + source),
                              "positions.csv",
                              CreationFlag.OVERWRITE,
                              null,
                              null,
                              fs)
                          .as(alice)));
      assertTrue(
          e.getMessage().contains("positions.csv in file system SHARED belongs to another account"),
          e.getMessage());
      assertUnchanged(bobs, bob, 0644, "bob's rows\n");
      // nor may alice append to it, nor delete it through DeleteOnTermination
      assertThrows(
          StagingException.class,
          () ->
              stageIn(
                  new UriStagingPolicy(List.of(drop), null, null),
                  new UriTransfer(
                          1,
                          Direction.IN,
                          URI.create("file://" + source),
                          "positions.csv",
                          CreationFlag.APPEND,
                          null,
                          null,
                          fs)
                      .as(alice)));
      try (StagingGateway g = gateway(UriStagingPolicy.networkOnly())) {
        StageOutPlan plan =
            new StageOutPlan(
                "job-1",
                List.of(),
                List.of(),
                List.of(),
                List.of(new StagedName(fs, "positions.csv")));
        assertThrows(StagingException.class, () -> g.deleteOnTermination(plan, jobDir));
      }
      assertUnchanged(bobs, bob, 0644, "bob's rows\n");
      assertEquals(
          List.of("positions.csv"),
          Arrays.stream(dir.toFile().list()).toList(),
          "no temporary file left behind in " + dir);
    }
  }

  @Test
  void aReadOnlyFileSystemsRootFileIsNeverReplacedByStaging() throws Exception {
    Path ref = ownedFile(reference.resolve("curve.csv"), null, "rw-r--r--", "reference\n");
    Path source = ownedFile(drop.resolve("fake.csv"), alice, "rw-r--r--", "alice's curve\n");
    NamedFileSystem readOnly = new NamedFileSystem("REF", reference, false, null).as(alice);
    StagingException e =
        assertThrows(
            StagingException.class,
            () -> stageIn(new UriStagingPolicy(List.of(drop), null, null), into(source, readOnly)));
    assertTrue(e.getMessage().contains("file system REF is read-only"), e.getMessage());
    assertUnchanged(ref, null, 0644, "reference\n");

    // even where the operator lets staging write it, the kernel decides as for alice's program
    NamedFileSystem allowed = new NamedFileSystem("REF", reference, true, null).as(alice);
    StagingException denied =
        assertThrows(
            StagingException.class,
            () -> stageIn(new UriStagingPolicy(List.of(drop), null, null), into(source, allowed)));
    assertTrue(denied.getMessage().contains("belongs to another account"), denied.getMessage());
    assertUnchanged(ref, null, 0644, "reference\n");
    StagingException kernel =
        assertThrows(
            StagingException.class,
            () ->
                stageIn(
                    new UriStagingPolicy(List.of(drop), null, null),
                    into(source, allowed, "new.csv", CreationFlag.OVERWRITE)));
    assertTrue(kernel.getMessage().contains("Permission denied"), kernel.getMessage());
    assertEquals(List.of("curve.csv"), Arrays.stream(reference.toFile().list()).toList());
  }

  @Test
  void alicesOwnFilesStageBothWaysAsHers() throws Exception {
    Path source = ownedFile(drop.resolve("market.csv"), null, "rw-r--r--", "a,b\n1,2\n");
    NamedFileSystem fs = new NamedFileSystem("SCRATCH", scratch).as(alice);
    UriStagingPolicy policy = new UriStagingPolicy(List.of(drop), null, null);

    Manifest in =
        stageIn(
            policy,
            new UriTransfer(
                    1,
                    Direction.IN,
                    URI.create("file://" + source),
                    "alice/market.csv",
                    CreationFlag.OVERWRITE,
                    null,
                    null,
                    fs)
                .as(alice));
    Path staged = scratch.resolve("alice/market.csv");
    assertUnchanged(staged, alice, 0600, "a,b\n1,2\n");
    assertEquals(alice.uid(), Files.getAttribute(staged.getParent(), "unix:uid"));
    assertEquals(
        io.gantry.staging.internal.files.Checksums.sha256(staged), in.records().get(0).sha256());

    // her own file replaced keeps its owner and mode; appended keeps both too
    Files.setAttribute(staged, "unix:mode", 0640);
    stageIn(policy, into(source, fs, "alice/market.csv", CreationFlag.OVERWRITE));
    assertUnchanged(staged, alice, 0640, "a,b\n1,2\n");
    Manifest appended = stageIn(policy, into(source, fs, "alice/market.csv", CreationFlag.APPEND));
    assertUnchanged(staged, alice, 0640, "a,b\n1,2\na,b\n1,2\n");
    assertEquals(
        io.gantry.staging.internal.files.Checksums.sha256(staged),
        appended.records().get(0).sha256());

    Manifest out =
        stageOut(
            new UriTransfer(
                    2,
                    Direction.OUT,
                    URI.create("file://" + drop.resolve("results/var.csv")),
                    "alice/market.csv",
                    CreationFlag.OVERWRITE,
                    null,
                    null,
                    fs)
                .as(alice));
    assertUnchanged(drop.resolve("results/var.csv"), alice, 0600, "a,b\n1,2\na,b\n1,2\n");
    assertEquals("SCRATCH:alice/market.csv", out.records().get(0).file());

    try (StagingGateway g = gateway(UriStagingPolicy.networkOnly())) {
      StagedName mine = new StagedName(fs, "alice/market.csv");
      StageOutPlan plan = new StageOutPlan("job-1", List.of(), List.of(), List.of(), List.of(mine));
      assertEquals(List.of(mine), g.deleteOnTermination(plan, jobDir));
    }
    assertFalse(Files.exists(staged));
  }

  private static UriTransfer into(Path source, NamedFileSystem fs) {
    return into(source, fs, "curve.csv", CreationFlag.OVERWRITE);
  }

  private static UriTransfer into(Path source, NamedFileSystem fs, String name, CreationFlag flag) {
    return new UriTransfer(
            1, Direction.IN, URI.create("file://" + source), name, flag, null, null, fs)
        .as(fs.account());
  }

  private StagingGateway gateway(UriStagingPolicy policy) {
    GatewayOptions options =
        GatewayOptions.defaults().withRetries(Duration.ofSeconds(2), 1, Duration.ofMillis(20));
    return new StagingGateway(new TestCredentials(), options, policy);
  }

  private Manifest stageIn(UriStagingPolicy policy, UriTransfer t) throws StagingException {
    try (StagingGateway g = gateway(policy)) {
      return g.stageIn(new StageInPlan(List.of(), List.of(), List.of(t)), jobDir, null);
    }
  }

  private Manifest stageOut(UriTransfer t) throws StagingException {
    try (StagingGateway g = gateway(new UriStagingPolicy(List.of(drop), null, null))) {
      return g.stageOut(
          new StageOutPlan("job-1", List.of(), List.of(), List.of(t), List.of()), jobDir, null);
    }
  }

  /** A file with these bytes, owner (null: root) and mode. */
  private static Path ownedFile(Path file, FileAccount owner, String mode, String text)
      throws IOException {
    Files.writeString(file, text);
    if (owner != null) {
      Files.setAttribute(file, "unix:uid", owner.uid(), LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(file, "unix:gid", owner.gid(), LinkOption.NOFOLLOW_LINKS);
    }
    mode(file, mode);
    return file;
  }

  private static void assertUnchanged(Path file, FileAccount owner, int mode, String text)
      throws IOException {
    assertEquals(
        owner == null ? 0 : owner.uid(),
        Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS),
        "owner of " + file);
    assertEquals(
        mode,
        ((Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS)) & 07777,
        "mode of " + file);
    assertEquals(text, Files.readString(file, StandardCharsets.UTF_8), "bytes of " + file);
  }

  private static void mode(Path p, String rwx) throws IOException {
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(rwx));
  }

  /** The account as NSS has it, or the test fails with the advice to create it. */
  private static FileAccount account(String name) {
    try {
      String[] ids = run("/usr/bin/id", "-u", name).split("\\s+");
      int uid = Integer.parseInt(ids[0]);
      int gid = Integer.parseInt(run("/usr/bin/id", "-g", name));
      List<Integer> groups =
          Arrays.stream(run("/usr/bin/id", "-G", name).split("\\s+"))
              .map(Integer::parseInt)
              .toList();
      return new FileAccount(name, uid, gid, groups);
    } catch (IOException | InterruptedException | RuntimeException e) {
      return fail(
          "OS account "
              + name
              + " is missing; run scripts/create-test-accounts as root ("
              + e
              + ")");
    }
  }

  private static String run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", argv) + ": " + out);
    }
    return out;
  }
}
