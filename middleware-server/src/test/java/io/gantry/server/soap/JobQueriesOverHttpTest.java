package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobList;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ServerInfo;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.internal.security.PasswordKeyPair;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client asks about jobs, through a CXF client over HTTP: output while the program runs,
 * results, the redacted definition, listings, and every typed fault the contract promises.
 */
class JobQueriesOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    server = GantryTestServer.builder(dir).settings(Map.of("slots.total", "2")).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void outputIsReadWhileTheProgramRunsAndCompletesAfterIt() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("talker")
                .shell(
                    "echo first; echo oops >&2;"
                        + " while [ ! -e release ]; do sleep 0.1; done; echo second",
                    60)
                .document());
    Path release = server.jobDirectory(id).resolve("release");
    OutputChunk early = awaitOutput(id, "first\n");
    assertFalse(early.complete, "the job still runs");
    assertEquals(0, early.offset);
    assertEquals(6, early.nextOffset);
    assertEquals(6L, early.size, "the stream's size so far");

    Files.createFile(release);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, id, LIMIT).state);
    OutputChunk rest = client.getJobOutput(id, OutputStreamName.STDOUT, early.nextOffset, 65536);
    assertEquals("second\n", new String(rest.data, StandardCharsets.UTF_8));
    assertEquals(early.nextOffset + 7, rest.nextOffset);
    assertTrue(rest.complete);
    OutputChunk partial = client.getJobOutput(id, OutputStreamName.STDOUT, 2, 3);
    assertEquals("rst", new String(partial.data, StandardCharsets.UTF_8));
    assertFalse(partial.complete, "more lies beyond the chunk");
    assertEquals(13L, partial.size, "the whole stream's size, whatever the chunk");
    OutputChunk errors = client.getJobOutput(id, OutputStreamName.STDERR, 0, 65536);
    assertEquals("oops\n", new String(errors.data, StandardCharsets.UTF_8));
  }

  private OutputChunk awaitOutput(String id, String expected) {
    return Await.value(
        "job " + id + "'s output '" + expected.strip() + "'",
        LIMIT,
        () -> client.getJobOutput(id, OutputStreamName.STDOUT, 0, 65536),
        chunk -> new String(chunk.data, StandardCharsets.UTF_8).equals(expected),
        chunk -> "'" + new String(chunk.data, StandardCharsets.UTF_8) + "'");
  }

  @Test
  void cancellingARunningJobIsAStateConflictThatNamesItsState() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("busy")
                .shell("while [ ! -e release ]; do sleep 0.1; done", 60)
                .document());
    Path release = server.jobDirectory(id).resolve("release");
    TestJobs.await(client, id, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    JobStateFault fault = assertThrows(JobStateFault.class, () -> client.cancelJob(id));
    assertEquals("JOB_STATE", fault.getFaultInfo().code);
    assertEquals(JobStateName.RUNNING, fault.getFaultInfo().state);
    assertEquals(id, fault.getFaultInfo().jobId);
    assertTrue(fault.getMessage().contains("use killJob"), fault.getMessage());
    Files.createFile(release);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, id, LIMIT).state);
    JobStateFault ended = assertThrows(JobStateFault.class, () -> client.killJob(id));
    assertEquals(JobStateName.SUCCEEDED, ended.getFaultInfo().state);
  }

  @Test
  void waitForJobAnswersAtTheJobsEndOrWhenItsSecondsAreUp() throws Exception {
    String id =
        client.submitJob(
            TestJobs.job("awaited")
                .shell("while [ ! -e release ]; do sleep 0.1; done", 60)
                .document());
    Path release = server.jobDirectory(id).resolve("release");
    TestJobs.await(client, id, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    assertEquals(JobStateName.RUNNING, client.waitForJob(id, 0).state, "0 seconds: at once");
    long before = System.nanoTime();
    assertEquals(JobStateName.RUNNING, client.waitForJob(id, 1).state, "not final in 1 s");
    assertTrue(
        System.nanoTime() - before >= Duration.ofMillis(900).toNanos(),
        "the job as it was after the second asked for, not at once");

    ExecutorService waiter = Executors.newSingleThreadExecutor();
    try {
      // a wait under way when the job ends answers with its end, before its 20 seconds are up
      Future<Duration> ended =
          waiter.submit(
              () -> {
                while (true) {
                  long start = System.nanoTime();
                  JobStatusInfo s = client.waitForJob(id, 20);
                  if (TestJobs.isFinal(s.state)) {
                    assertEquals(JobStateName.SUCCEEDED, s.state);
                    return Duration.ofNanos(System.nanoTime() - start);
                  }
                }
              });
      Thread.sleep(300); // the wait has begun (if not, it sees the end at once: the same answer)
      Files.createFile(release);
      Duration took = ended.get(LIMIT.toSeconds() * 2, TimeUnit.SECONDS);
      assertTrue(
          took.compareTo(Duration.ofSeconds(19)) < 0, "woken by the end, not its time: " + took);
    } finally {
      waiter.shutdownNow();
    }
    assertEquals(JobStateName.SUCCEEDED, client.waitForJob(id, 20).state, "final: at once");
  }

  @Test
  void anUnknownJobIsNotFoundForEveryOperation() {
    String unknown = "abcdefghijklmnopqrstuvwxyz234567";
    for (var call :
        List.<ThrowingCall>of(
            () -> client.getJobStatus(unknown),
            () -> client.waitForJob(unknown, 1),
            () -> client.cancelJob(unknown),
            () -> client.killJob(unknown),
            () -> client.getJobResults(unknown),
            () -> client.getJobDefinition(unknown),
            () -> client.getJobAudit(unknown),
            () -> client.getJobOutput(unknown, OutputStreamName.STDOUT, 0, 65536))) {
      JobNotFoundFault fault = assertThrows(JobNotFoundFault.class, call::run);
      assertEquals("JOB_NOT_FOUND", fault.getFaultInfo().code);
    }
    // a malformed id is the caller's mistake, named as such (not "not found")
    var malformed =
        assertThrows(
            jakarta.xml.ws.soap.SOAPFaultException.class,
            () -> client.getJobStatus("not even an id"));
    assertTrue(malformed.getMessage().startsWith("argument jobId:"), malformed.getMessage());
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void aJobNeedingMoreProcessesThanTheServerHasSlotsIsInvalid() throws Exception {
    long before = client.listJobs(null, 0, 1, false).total;
    InvalidJobFault fault =
        assertThrows(
            InvalidJobFault.class,
            () -> client.submitJob(TestJobs.job("too-wide").mpirun(3, 60, "/bin/true").document()));
    assertFalse(fault.getFaultInfo().valid);
    assertTrue(
        fault.getFaultInfo().problems.stream().anyMatch(p -> p.message.contains("slots.total")),
        "names the setting: " + messages(fault.getFaultInfo()));
    assertEquals(before, client.listJobs(null, 0, 1, false).total, "nothing was queued");
  }

  @Test
  void anInvalidJobDescriptionGetsTheFullReportAndNothingIsQueued() throws Exception {
    long before = client.listJobs(null, 0, 1, false).total;
    // three mistakes: no executable, zero processes, an SQL stage-in reading a file nobody writes
    String invalid =
        "<jsdl:JobDefinition xmlns:jsdl=\""
            + TestJobs.JSDL
            + "\" xmlns:gx=\""
            + TestJobs.GANTRY
            + "\">\n<jsdl:JobDescription>\n<jsdl:Application>\n<gx:MpirunApplication>\n"
            + "<gx:NumberOfProcesses>0</gx:NumberOfProcesses>\n</gx:MpirunApplication>\n</jsdl:Application>\n"
            + "<gx:PreDataStaging><gx:SQLQueryDataStaging><gx:DataSourceRef>risk</gx:DataSourceRef>\n"
            + "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup><gx:SQLStatement>SELECT ?</gx:SQLStatement>\n"
            + "<gx:SQLOutputFileName>a.csv</gx:SQLOutputFileName><gx:SQLInputFileName>nowhere.csv</gx:SQLInputFileName>\n"
            + "</gx:SQLQueryDataStaging></gx:PreDataStaging>\n</jsdl:JobDescription>\n</jsdl:JobDefinition>";
    ValidationResult validated = client.validateJob(TestJobs.documentOf(invalid));
    InvalidJobFault fault =
        assertThrows(InvalidJobFault.class, () -> client.submitJob(TestJobs.documentOf(invalid)));
    ValidationResult report = fault.getFaultInfo();
    assertFalse(report.valid);
    assertTrue(report.problems.size() >= 2, "every problem, not the first: " + messages(report));
    assertTrue(
        report.problems.stream().allMatch(p -> p.line > 0),
        "each located by line: " + messages(report));
    assertEquals(
        messages(validated), messages(report), "the fault carries what validateJob reports");
    assertEquals(before, client.listJobs(null, 0, 1, false).total, "nothing was queued");
  }

  private static List<String> messages(ValidationResult result) {
    List<String> list = new ArrayList<>();
    for (Problem p : result.problems) {
      list.add(p.severity + " " + p.line + ":" + p.column + " " + p.path + ": " + p.message);
    }
    return list;
  }

  @Test
  void theOwnersDefinitionReadBackKeepsItsBoundPasswordSoItCanBeSubmittedAgain() throws Exception {
    // encrypted as a client does it: with the public key the server publishes, for the caller
    // (the single user "local" of a server without authentication) and the transfer's login
    PublicKey key =
        KeyFactory.getInstance("RSA")
            .generatePublic(
                new X509EncodedKeySpec(
                    PasswordKeyPair.fromPem(client.getServerInfo().passwordPublicKey)));
    String password =
        EncryptedSecret.encrypt(
            key,
            "s3cret-of-the-risk-team".toCharArray(),
            SecretBinding.of("local", TestJobs.SCP_PASSWORD_DESTINATION));
    String id =
        client.submitJob(
            TestJobs.job("with-password")
                .scpStageInWithPassword(password)
                .posix(60, "/bin/true")
                .document());
    JobDocument definition = client.getJobDefinition(id);
    String xml = text(definition);
    assertEquals(
        password,
        definition
            .getJobDefinition()
            .getElementsByTagNameNS(TestJobs.GANTRY, "RemotePassword")
            .item(0)
            .getTextContent());
    assertTrue(xml.contains("/srv/data/prices.csv"), "the rest is as submitted");
    assertTrue(client.validateJob(definition).valid, "the owner's copy validates as it is");
    String ciphertext = password.substring(password.length() - 60, password.length() - 1);
    // nothing listens on port 9: stage-in fails, and says so without the password
    JobStatusInfo status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.FAILED, status.state);
    assertFalse(
        status.failureReason.contains(ciphertext),
        "the reason shows no ciphertext either: " + status.failureReason);
    assertFalse(status.failureReason.contains("s3cret"), status.failureReason);
  }

  @Test
  void aPasswordThisServerCannotDecryptIsInvalidAndNotEchoed() throws Exception {
    long before = client.listJobs(null, 0, 1, false).total;
    String foreign = TestJobs.syntacticallyValidEncryptedPassword("local");
    InvalidJobFault fault =
        assertThrows(
            InvalidJobFault.class,
            () ->
                client.submitJob(
                    TestJobs.job("foreign-password")
                        .scpStageInWithPassword(foreign)
                        .posix(60, "/bin/true")
                        .document()));
    assertTrue(
        messages(fault.getFaultInfo())
            .toString()
            .contains("does not decrypt with this server's key"),
        messages(fault.getFaultInfo()).toString());
    assertFalse(
        messages(fault.getFaultInfo())
            .toString()
            .contains(foreign.substring(foreign.length() - 60)),
        messages(fault.getFaultInfo()).toString());
    assertEquals(before, client.listJobs(null, 0, 1, false).total, "nothing was queued");
  }

  private static String text(JobDocument document) throws Exception {
    StringWriter out = new StringWriter();
    TransformerFactory.newInstance()
        .newTransformer()
        .transform(new DOMSource(document.getJobDefinition()), new StreamResult(out));
    return out.toString();
  }

  @Test
  void serverInfoTellsVersionNamespaceAndLimits() {
    ServerInfo info = client.getServerInfo();
    assertEquals("0.1.0", info.version);
    assertEquals(RawSoapClient.API, info.apiNamespace);
    assertEquals(2, info.totalSlots);
    assertEquals(4 * 1024 * 1024, info.maxJobDefinitionBytes);
    assertEquals(1000, info.maxQueuedJobsPerUser);
  }

  @Test
  void jobsAreListedNewestFirstInPagesAndFilteredByState() throws Exception {
    List<String> submitted = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      submitted.add(
          client.submitJob(
              TestJobs.job("page-" + i).posix(60, i == 2 ? "/bin/false" : "/bin/true").document()));
    }
    for (String id : submitted) {
      awaitFinal(client, id, LIMIT);
    }
    JobList all = client.listJobs(null, 0, 1000, false);
    List<String> pages = new ArrayList<>();
    for (int offset = 0; offset < all.total; offset += 2) {
      JobList page = client.listJobs(null, offset, 2, false);
      assertEquals(all.total, page.total);
      assertEquals(offset, page.offset);
      assertTrue(page.jobs.size() <= 2);
      page.jobs.forEach(j -> pages.add(j.jobId));
    }
    assertEquals(ids(all.jobs), pages, "pages of 2 make up the whole list");
    List<String> newestFirst = new ArrayList<>(submitted);
    java.util.Collections.reverse(newestFirst);
    assertEquals(newestFirst, ids(all.jobs).subList(0, 5), "newest first");

    JobList failed = client.listJobs(List.of(JobStateName.FAILED), 0, 1000, false);
    assertTrue(ids(failed.jobs).contains(submitted.get(2)));
    assertTrue(failed.jobs.stream().allMatch(j -> j.state == JobStateName.FAILED));
    assertEquals(failed.jobs.size(), failed.total);
    JobList both =
        client.listJobs(List.of(JobStateName.FAILED, JobStateName.SUCCEEDED), 0, 1000, false);
    assertTrue(ids(both.jobs).containsAll(submitted));

    String unknown = "abcdefghijklmnopqrstuvwxyz234567";
    List<JobStatusInfo> statuses =
        client.getJobStatuses(Arrays.asList(submitted.get(4), unknown, submitted.get(0)));
    assertEquals(
        List.of(submitted.get(4), unknown, submitted.get(0)),
        ids(statuses),
        "one answer per id, in order");
    assertEquals(true, statuses.get(1).notFound, "the unknown id is marked");
    assertNull(statuses.get(1).state);
    assertNull(statuses.get(0).notFound);
    assertEquals("page-4", statuses.get(0).name);
    assertEquals("local", statuses.get(0).owner);
  }

  private static List<String> ids(List<JobStatusInfo> jobs) {
    return jobs.stream().map(j -> j.jobId).toList();
  }
}
