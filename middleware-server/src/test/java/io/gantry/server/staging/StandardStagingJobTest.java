package io.gantry.server.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobResults;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.security.PasswordKeyPair;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.FtpTestServer;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.SshTestHost;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * Standard JSDL DataStaging through a running server: a job stages in over http, ftp, sftp and
 * file:, runs a program on the files, and stages its output out; what cannot stage is refused
 * before queueing. One server (and one http, ftp and sftp host) serves every test of the class:
 * each test stages files of its own names, and what it counts (jobs, requests) it counts from its
 * own start.
 */
class StandardStagingJobTest {
  private static final String SSH_PASSWORD = "sftp-Pässword-7";

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement client;
  static HttpTestServer http;
  static FtpTestServer ftp;
  static SshTestHost ssh;
  static Path shared;
  static Path scratch;
  static Path reference;

  @BeforeAll
  static void start() throws Exception {
    http = HttpTestServer.http(dir.resolve("http"));
    ftp = FtpTestServer.ftp(dir.resolve("ftp"));
    ssh = SshTestHost.start(dir.resolve("ssh"));
    ssh.addUser("risk", SSH_PASSWORD);
    // the file: root, a drop every job account may write (sticky, as /tmp): file: transfers are
    // made as the job's OS account, so the root's permissions apply to it
    shared = Files.createDirectories(dir.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 01777);
    // The operator's file systems: a scratch space every job account may write (sticky, as /tmp)
    // and reference data jobs may only read.
    scratch = Files.createDirectories(dir.resolve("scratch"));
    Files.setPosixFilePermissions(
        scratch, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    reference = Files.createDirectories(dir.resolve("reference"));
    Files.writeString(dir.resolve("known_hosts"), ssh.knownHostsLine() + "\n");
    Map<String, String> settings =
        new HashMap<>(
            Map.of(
                "staging.file-roots",
                shared.toString(),
                "ssh.known-hosts",
                dir.resolve("known_hosts").toString()));
    settings.putAll(TestStagingHosts.loopback(http.port(), ftp.port(), ssh.port()));
    settings.put("filesystem.SCRATCH.path", scratch.toString());
    settings.put("filesystem.REF.path", reference.toString());
    settings.put("filesystem.REF.read-only", "true");
    server =
        GantryTestServer.builder(dir).dataDir(dir.resolve("server")).settings(settings).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (http != null) {
      http.close();
    }
    if (ftp != null) {
      ftp.close();
    }
    if (ssh != null) {
      ssh.close();
    }
  }

  private static String encrypted(String secret, SecretBinding binding) throws Exception {
    String pem = client.getServerInfo().passwordPublicKey;
    PublicKey key =
        KeyFactory.getInstance("RSA")
            .generatePublic(new X509EncodedKeySpec(PasswordKeyPair.fromPem(pem)));
    return EncryptedSecret.encrypt(key, secret.toCharArray(), binding);
  }

  /** The uid NSS gives {@code account}. */
  private static int uidOf(String account) throws Exception {
    Process id = new ProcessBuilder("/usr/bin/id", "-u", account).start();
    String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, id.waitFor(), "id -u " + account);
    return Integer.parseInt(uid);
  }

  static String staging(String file, String flag, Boolean delete, String source, String target) {
    return "<jsdl:DataStaging><jsdl:FileName>"
        + file
        + "</jsdl:FileName><jsdl:CreationFlag>"
        + flag
        + "</jsdl:CreationFlag>"
        + (delete == null
            ? ""
            : "<jsdl:DeleteOnTermination>" + delete + "</jsdl:DeleteOnTermination>")
        + (source == null ? "" : "<jsdl:Source>" + source + "</jsdl:Source>")
        + (target == null ? "" : "<jsdl:Target>" + target + "</jsdl:Target>")
        + "</jsdl:DataStaging>\n";
  }

  static String uri(String uri) {
    return "<jsdl:URI>" + uri + "</jsdl:URI>";
  }

  static String token(String user, String password) {
    return "<ac:Credential><wsse:UsernameToken><wsse:Username>"
        + user
        + "</wsse:Username><wsse:Password>"
        + password
        + "</wsse:Password></wsse:UsernameToken></ac:Credential>";
  }

  static Element job(String script, String staging) throws Exception {
    String xml =
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
            xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"
            xmlns:ac="http://schemas.ogf.org/hpcp/2007/11/ac"
            xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">
          <jsdl:JobDescription>
            <jsdl:Application><posix:POSIXApplication>
              <posix:Executable>/bin/sh</posix:Executable>
              <posix:Argument>-c</posix:Argument><posix:Argument>%s</posix:Argument>
              <posix:Output>out.txt</posix:Output><posix:Error>err.txt</posix:Error>
            </posix:POSIXApplication></jsdl:Application>
            %s
          </jsdl:JobDescription>
        </jsdl:JobDefinition>
        """
            .formatted(script, staging);
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder()
        .parse(new InputSource(new StringReader(xml)))
        .getDocumentElement();
  }

  private static JobStatusInfo await(String id) {
    return TestJobs.awaitFinal(client, id, Duration.ofSeconds(30));
  }

  @Test
  void aJobStagesInFromEverySchemeRunsOnTheFilesAndStagesItsOutputOut() throws Exception {
    Files.writeString(dir.resolve("http/a.txt"), "from http\n");
    Files.writeString(dir.resolve("ftp/b.txt"), "from ftp\n");
    Files.writeString(dir.resolve("ssh/c.txt"), "from sftp\n");
    Files.writeString(shared.resolve("d.txt"), "from file\n");
    String sftp = "sftp://127.0.0.1:" + ssh.port();
    String password =
        encrypted(
            SSH_PASSWORD, SecretBinding.uri("local", "sftp", "risk", "127.0.0.1", ssh.port()));
    String staging =
        staging("a.txt", "overwrite", true, uri(http.base() + "/a.txt"), null)
            + staging(
                "b.txt", "overwrite", null, uri("ftp://127.0.0.1:" + ftp.port() + "/b.txt"), null)
            + staging(
                "c.txt",
                "dontOverwrite",
                null,
                uri(sftp + "/c.txt") + token("risk", password),
                null)
            + staging("d.txt", "overwrite", null, uri("file://" + shared.resolve("d.txt")), null)
            + staging("out.txt", "overwrite", null, null, uri(http.base() + "/results/out.txt"))
            + staging(
                "out.txt",
                "overwrite",
                null,
                null,
                uri("ftp://127.0.0.1:" + ftp.port() + "/out.txt"))
            + staging(
                "out.txt",
                "overwrite",
                null,
                null,
                uri(sftp + "/out.txt") + token("risk", password))
            + staging(
                "out.txt",
                "overwrite",
                null,
                null,
                uri("file://" + shared.resolve("results/out.txt")));
    String id = client.submitJob(new JobDocument(job("cat a.txt b.txt c.txt d.txt", staging)));
    JobStatusInfo status = await(id);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    String expected = "from http\nfrom ftp\nfrom sftp\nfrom file\n";
    assertEquals(expected, Files.readString(dir.resolve("http/results/out.txt")));
    assertEquals(expected, Files.readString(dir.resolve("ftp/out.txt")));
    assertEquals(expected, Files.readString(dir.resolve("ssh/out.txt")));
    assertEquals(expected, Files.readString(shared.resolve("results/out.txt")));
    assertTrue(http.requests().contains("GET /a.txt"), http.requests().toString());

    JobResults results = client.getJobResults(id);
    assertEquals(4, results.stagedIn.size());
    assertEquals(4, results.stagedOut.size());
    assertTrue(
        results.stagedIn.stream()
            .allMatch(f -> f.checksum != null && f.checksum.matches("sha256:[0-9a-f]{64}")));
    Path jobDir = dir.resolve("server/jobs").resolve(id);
    assertFalse(Files.exists(jobDir.resolve("a.txt")), "DeleteOnTermination removed a.txt");
    assertTrue(Files.exists(jobDir.resolve("b.txt")));
  }

  @Test
  void aSecondJobGetsAnUnchangedRemoteFileFromTheStageInCacheAndAChangedOneAgain()
      throws Exception {
    Path market = dir.resolve("http/levels.csv");
    Files.writeString(market, "factor,level\nF1,101.5\n");
    String staging =
        staging("levels.csv", "overwrite", null, uri(http.base() + "/levels.csv"), null)
            .replace(
                "</jsdl:Source>",
                "</jsdl:Source><gx:CacheValidity"
                    + " xmlns:gx=\"urn:gantry:jsdl:ext:1\">PT4H</gx:CacheValidity>");
    String first = client.submitJob(new JobDocument(job("cat levels.csv", staging)));
    assertEquals(JobStateName.SUCCEEDED, await(first).state);
    String second = client.submitJob(new JobDocument(job("cat levels.csv", staging)));
    assertEquals(JobStateName.SUCCEEDED, await(second).state);
    JobResults miss = client.getJobResults(first);
    JobResults hit = client.getJobResults(second);
    assertTrue(miss.stagedIn.get(0).step.startsWith("uri-in["), miss.stagedIn.get(0).step);
    assertTrue(hit.stagedIn.get(0).step.startsWith("uri-in-cached["), hit.stagedIn.get(0).step);
    assertEquals(miss.stagedIn.get(0).checksum, hit.stagedIn.get(0).checksum);
    assertEquals(
        1,
        http.requests().stream().filter(r -> r.equals("GET /levels.csv")).count(),
        "the second job only asked (HEAD): " + http.requests());
    assertTrue(
        client.getJobAudit(second).entries.stream().anyMatch(e -> e.text.contains("uri-in-cached")),
        "the audit trail names the hit");

    Files.writeString(market, "factor,level\nF1,99.0\n");
    java.nio.file.attribute.FileTime later =
        java.nio.file.attribute.FileTime.from(
            Files.getLastModifiedTime(market).toInstant().plusSeconds(60));
    Files.setLastModifiedTime(market, later);
    String third = client.submitJob(new JobDocument(job("cat levels.csv", staging)));
    assertEquals(JobStateName.SUCCEEDED, await(third).state);
    assertTrue(
        client.getJobResults(third).stagedIn.get(0).step.startsWith("uri-in["),
        "a changed file is fetched again");
    assertEquals(
        "factor,level\nF1,99.0\n",
        Files.readString(dir.resolve("server/jobs").resolve(third).resolve("out.txt")));
  }

  @Test
  void whatCannotStageIsRefusedBeforeQueueingWithTheReason() throws Exception {
    String otherHost =
        encrypted(SSH_PASSWORD, SecretBinding.uri("local", "https", "risk", "files.example", 443));
    Map<String, String> refused =
        Map.of(
            staging("x", "overwrite", null, uri("http://127.0.0.1:9/x"), null),
                "staging.allowed-hosts",
            staging("x", "overwrite", null, null, uri("ftp://169.254.169.254/latest")),
                "staging.allowed-hosts",
            staging("x", "overwrite", null, uri("gsiftp://grid.example/x"), null),
                "Gantry cannot stage 'gsiftp:' URIs",
            staging("x", "overwrite", null, uri("srm://grid.example/x"), null),
                "Gantry cannot stage 'srm:' URIs",
            staging(
                    "x",
                    "overwrite",
                    null,
                    uri("file://" + dir.resolve("server/keys/private.pem")),
                    null),
                "outside the directories of staging.file-roots",
            staging(
                    "x",
                    "overwrite",
                    null,
                    uri("sftp://127.0.0.1:" + ssh.port() + "/c.txt") + token("risk", SSH_PASSWORD),
                    null),
                "a clear password is never accepted",
            staging(
                    "x",
                    "overwrite",
                    null,
                    uri("https://127.0.0.1:" + http.port() + "/c.txt") + token("risk", otherHost),
                    null),
                "the UsernameToken Password");
    long jobsBefore = client.listJobs(List.of(), 0, 10, false).total;
    for (Map.Entry<String, String> e : refused.entrySet()) {
      InvalidJobFault fault =
          assertThrows(
              InvalidJobFault.class,
              () -> client.submitJob(new JobDocument(job("true", e.getKey()))),
              e.getKey());
      String report =
          fault.getFaultInfo().problems.stream().map(p -> p.message).toList().toString();
      assertTrue(report.contains(e.getValue()), report);
      assertFalse(report.contains(SSH_PASSWORD), "the clear password is not repeated: " + report);
    }
    assertEquals(
        jobsBefore, client.listJobs(List.of(), 0, 10, false).total, "no refused job was queued");
  }

  @Test
  void aFailingTransferIsRetriedAndThenFailsTheJobWithAClearMessage() throws Exception {
    Files.writeString(dir.resolve("http/a.txt"), "x");
    int requestsBefore = http.requests().size();
    http.failNext(100);
    JobStatusInfo status;
    try {
      String id =
          client.submitJob(
              new JobDocument(
                  job(
                      "cat a.txt",
                      staging("a.txt", "overwrite", null, uri(http.base() + "/a.txt"), null))));
      status = await(id);
    } finally {
      http.failNext(0); // the server answers the other tests of the class again
    }
    assertEquals(JobStateName.FAILED, status.state);
    assertTrue(
        status.failureReason.contains(
            "stage in http://127.0.0.1:" + http.port() + "/a.txt to a.txt"),
        status.failureReason);
    assertTrue(status.failureReason.contains("failed after 3 attempts"), status.failureReason);
    assertTrue(status.failureReason.contains("answered HTTP 503"), status.failureReason);
    assertEquals(3, http.requests().size() - requestsBefore, http.requests().toString());
  }

  @Test
  void theProgramsErrorFileIsStagedOutEvenWhenItIsTheOnlyOutput() throws Exception {
    String id =
        client.submitJob(
            new JobDocument(
                job(
                    "echo oops &gt;&amp;2",
                    staging(
                        "err.txt",
                        "overwrite",
                        null,
                        null,
                        uri("file://" + shared.resolve("err.txt"))))));
    JobStatusInfo status = await(id);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    assertEquals("oops\n", Files.readString(shared.resolve("err.txt")));
  }

  static String inFileSystem(
      String file, String fileSystem, boolean delete, String source, String target) {
    return "<jsdl:DataStaging><jsdl:FileName>"
        + file
        + "</jsdl:FileName><jsdl:FilesystemName>"
        + fileSystem
        + "</jsdl:FilesystemName><jsdl:CreationFlag>overwrite</jsdl:CreationFlag><jsdl:DeleteOnTermination>"
        + delete
        + "</jsdl:DeleteOnTermination>"
        + (source == null ? "" : "<jsdl:Source>" + source + "</jsdl:Source>")
        + (target == null ? "" : "<jsdl:Target>" + target + "</jsdl:Target>")
        + "</jsdl:DataStaging>\n";
  }

  /**
   * Waits for a deletion that follows the job's final state (after a failed program it is not
   * stored first).
   */
  private static boolean gone(Path file) throws InterruptedException {
    for (int i = 0; i < 100 && Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS); i++) {
      Thread.sleep(50);
    }
    return !Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS);
  }

  @Test
  void aSandboxedJobReadsAndWritesTheFileSystemsItNamesAndTheirFilesAreStagedThere()
      throws Exception {
    Files.writeString(dir.resolve("http/market.csv"), "from http\n");
    Files.writeString(reference.resolve("ref.txt"), "reference data\n");
    String script =
        "mkdir -p $SCRATCH/results; { cat $SCRATCH/in/market.csv /fs/REF/ref.txt;"
            + " if touch /fs/REF/w 2&gt;/dev/null; then echo ref-writable; else echo ref-read-only; fi;"
            + " echo $GANTRY_FS_SCRATCH $REF; } &gt; $SCRATCH/results/out.txt";
    String staging =
        "<jsdl:Resources><jsdl:FileSystem name=\"REF\"><jsdl:FileSystemType>normal</jsdl:FileSystemType>"
            + "</jsdl:FileSystem></jsdl:Resources>\n"
            + inFileSystem("in/market.csv", "SCRATCH", true, uri(http.base() + "/market.csv"), null)
            + inFileSystem(
                "results/out.txt",
                "SCRATCH",
                false,
                null,
                uri("file://" + shared.resolve("out.txt")));
    String id = client.submitJob(new JobDocument(job(script, staging)));
    JobStatusInfo status = await(id);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    String expected = "from http\nreference data\nref-read-only\n/fs/SCRATCH /fs/REF\n";
    assertEquals(
        expected,
        Files.readString(scratch.resolve("results/out.txt")),
        "written by the job in /fs/SCRATCH");
    assertEquals(
        expected, Files.readString(shared.resolve("out.txt")), "staged out from the file system");
    assertEquals(
        uidOf("nobody"),
        Files.getAttribute(shared.resolve("out.txt"), "unix:uid"),
        "written into the file: root as the job's OS account (jobs.default-os-account), not root");
    assertFalse(Files.exists(reference.resolve("w")));
    assertFalse(
        Files.exists(scratch.resolve("in/market.csv")), "DeleteOnTermination in the file system");
    Path jobDir = dir.resolve("server/jobs").resolve(id);
    assertFalse(
        Files.exists(jobDir.resolve("in/market.csv")),
        "the file system's file is not in the job directory");
    JobResults results = client.getJobResults(id);
    assertEquals("SCRATCH:in/market.csv", results.stagedIn.get(0).target);
  }

  @Test
  void anMpiJobFindsItsFileSystemThroughTheVariablesToo() throws Exception {
    Files.writeString(dir.resolve("http/market.csv"), "from http\n");
    String xml =
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl" xmlns:gx="urn:gantry:jsdl:ext:1">
          <jsdl:JobDescription>
            <jsdl:Application><gx:MpirunApplication>
              <gx:Executable>/bin/sh</gx:Executable>
              <gx:Argument>-c</gx:Argument><gx:Argument>cp $GANTRY_FS_SCRATCH/mpi-in.csv $SCRATCH/mpi-out.csv</gx:Argument>
              <gx:NumberOfProcesses>1</gx:NumberOfProcesses>
            </gx:MpirunApplication></jsdl:Application>
            %s
          </jsdl:JobDescription>
        </jsdl:JobDefinition>
        """
            .formatted(
                inFileSystem("mpi-in.csv", "SCRATCH", true, uri(http.base() + "/market.csv"), null)
                    + inFileSystem(
                        "mpi-out.csv",
                        "SCRATCH",
                        true,
                        null,
                        uri("file://" + shared.resolve("mpi-out.csv"))));
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Element job =
        f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
    JobStatusInfo status = await(client.submitJob(new JobDocument(job)));
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
    assertEquals("from http\n", Files.readString(shared.resolve("mpi-out.csv")));
    assertFalse(Files.exists(scratch.resolve("mpi-out.csv")), "DeleteOnTermination");
  }

  @Test
  void deleteOnTerminationAlsoRemovesTheFilesOfAJobWhoseProgramFailed() throws Exception {
    Files.writeString(dir.resolve("http/a.txt"), "input\n");
    String id =
        client.submitJob(
            new JobDocument(
                job(
                    "cat a.txt; exit 3",
                    staging("a.txt", "overwrite", true, uri(http.base() + "/a.txt"), null)
                        + staging("keep.txt", "overwrite", false, uri(http.base() + "/a.txt"), null)
                        + inFileSystem(
                            "scratch.txt", "SCRATCH", true, uri(http.base() + "/a.txt"), null))));
    JobStatusInfo status = await(id);
    assertEquals(JobStateName.FAILED, status.state);
    Path jobDir = dir.resolve("server/jobs").resolve(id);
    assertTrue(gone(jobDir.resolve("a.txt")), "DeleteOnTermination after a failed program");
    assertTrue(gone(scratch.resolve("scratch.txt")), "and in a file system");
    assertTrue(Files.exists(jobDir.resolve("keep.txt")), "unmarked files stay");
    assertEquals("input\n", Files.readString(jobDir.resolve("out.txt")), "the program did read it");
  }

  @Test
  void anUnknownFileSystemANameLeavingOneOrAStageInIntoAReadOnlyOneIsRefused() throws Exception {
    Map<String, String> refused =
        Map.of(
            inFileSystem("x", "TAPE", false, uri(http.base() + "/x"), null),
            "file system TAPE is not one this server provides; it provides REF, SCRATCH",
            inFileSystem("../escape.txt", "SCRATCH", false, uri(http.base() + "/x"), null),
            "'..' is not allowed in file names",
            inFileSystem("ref.txt", "REF", false, uri(http.base() + "/x"), null),
            "file system REF is read-only (filesystem.REF.read-only=true), so staging does not"
                + " write ref.txt into it",
            "<jsdl:Resources><jsdl:FileSystem name=\"SCRATCH\"><jsdl:MountPoint>/scratch</jsdl:MountPoint>"
                + "</jsdl:FileSystem></jsdl:Resources>",
            "MountPoint /scratch cannot be provided");
    for (Map.Entry<String, String> e : refused.entrySet()) {
      InvalidJobFault fault =
          assertThrows(
              InvalidJobFault.class,
              () -> client.submitJob(new JobDocument(job("true", e.getKey()))),
              e.getKey());
      String report =
          fault.getFaultInfo().problems.stream().map(p -> p.message).toList().toString();
      assertTrue(report.contains(e.getValue()), report);
    }
  }
}
