package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.ChainStage;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.RerunStage;
import io.gantry.server.api.StagedFileInfo;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dependencies and holds as a Slurm user expects them ({@code --dependency=afterok/afterany},
 * {@code --hold}, {@code scontrol hold/release}), against a real server: a waiting job holds no
 * slot and stages nothing, says what it waits for, and fails when what it waits for can never
 * happen. A job's output as the next job's input ({@code gantry-job:JOB/FILE}) on the same server.
 */
class JobDependenciesOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(60);
  static final String PASSWORD = "dependencies-test-password";

  @TempDir static Path dir;
  static RiskDatabase risk;
  static GantryTestServer server;
  static final Path GIO_CAT =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gio-cat");
  static JobManagement alice;
  static JobManagement bob;

  @BeforeAll
  static void start() throws Exception {
    risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(risk.dataSourceSettings());
    settings.put("slots.total", "2");
    settings.put("staging.parallelism", "1");
    // the sandbox shows gio-cat (the file delivery's reader) only from an allowed root
    settings.put("jobs.allowed-executable-roots", GIO_CAT.getParent().toString());
    server =
        GantryTestServer.builder(dir)
            .secure()
            .settings(settings)
            .account(TestAccount.admin("admin"))
            .start();
    // the users over SOAP: a `gantry-server user add` JVM each took seconds
    TestAccount a = server.admin();
    JobManagement admin = JobManagementClients.of(server, new Login.Basic(a.name(), a.password()));
    for (String user : List.of("alice", "bob")) {
      admin.addUser(user, PASSWORD, "user", null);
    }
    alice = JobManagementClients.of(server, new Login.Basic("alice", PASSWORD));
    bob = JobManagementClients.of(server, new Login.Basic("bob", PASSWORD));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A job that runs until the file {@code release} appears in its directory. */
  static TestJobs blocking(String name) {
    return TestJobs.job(name).shell("while [ ! -e release ]; do sleep 0.1; done", 60);
  }

  static void release(String id) throws Exception {
    Files.createFile(server.jobDirectory(id).resolve("release"));
  }

  @Test
  void aJobAfterAnotherWaitsStagingNothingAndStartsOnlyOnceItSucceeded() throws Exception {
    String first = alice.submitJob(blocking("first").document());
    await(alice, first, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
    String second = alice.submitJob(RiskDatabase.valuationJob("second").after(first).document());

    JobStatusInfo waiting = alice.getJobStatus(second);
    assertEquals(JobStateName.QUEUED, waiting.state);
    assertEquals("Dependency(after:" + first + ")", waiting.reason);
    assertEquals(
        "Dependency(after:" + first + ")",
        alice.listJobs(java.util.List.of(JobStateName.QUEUED), 0, 10, false).jobs.stream()
            .filter(j -> j.jobId.equals(second))
            .findFirst()
            .orElseThrow()
            .reason,
        "listJobs says it too");
    // one of two slots is free and nothing else waits: only the dependency keeps it back
    Thread.sleep(500);
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(second).state);
    assertTrue(alice.getJobResults(second).stagedIn.isEmpty(), "nothing staged while waiting");

    release(first);
    JobStatusInfo firstEnd = awaitFinal(alice, first, LIMIT);
    JobStatusInfo secondEnd = awaitFinal(alice, second, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, firstEnd.state);
    assertEquals(JobStateName.SUCCEEDED, secondEnd.state, secondEnd.failureReason);
    assertNull(secondEnd.reason);
    assertFalse(secondEnd.started.isBefore(firstEnd.finished), "started after the first ended");
    assertEquals(1, risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + second + "'"));
  }

  @Test
  void aJobAfterAFailedJobFailsAsNeverSatisfiedWhileAfterAnyRuns() throws Exception {
    String failing = alice.submitJob(TestJobs.job("failing").posix(60, "/bin/false").document());
    String after =
        alice.submitJob(TestJobs.job("after").shell("true", 60).after(failing).document());
    String afterAny =
        alice.submitJob(TestJobs.job("any").shell("true", 60).afterAny(failing).document());
    // a job that waits on the never-satisfied one fails in turn, and names it
    String chained =
        alice.submitJob(TestJobs.job("chained").shell("true", 60).after(after).document());

    assertEquals(JobStateName.FAILED, awaitFinal(alice, failing, LIMIT).state);
    JobStatusInfo never = awaitFinal(alice, after, LIMIT);
    assertEquals(JobStateName.FAILED, never.state);
    assertTrue(
        never.failureReason.startsWith(
            "DependencyNeverSatisfied: job " + failing + " ended FAILED"),
        never.failureReason);
    assertNull(never.started, "its program never ran");
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, afterAny, LIMIT).state);
    JobStatusInfo chainedEnd = awaitFinal(alice, chained, LIMIT);
    assertEquals(JobStateName.FAILED, chainedEnd.state);
    assertTrue(chainedEnd.failureReason.contains(after), chainedEnd.failureReason);
  }

  @Test
  void aHeldJobWaitsUntilReleasedAndOnlyAQueuedJobCanBeHeld() throws Exception {
    String held = alice.submitJob(TestJobs.job("held").shell("true", 60).held().document());
    JobStatusInfo status = alice.getJobStatus(held);
    assertEquals(JobStateName.QUEUED, status.state);
    assertEquals("JobHeldUser (held by alice)", status.reason);

    // held on the way: a second job queued behind a stage-in that cannot finish yet
    Path gate = dir.resolve("stage-in-gate");
    String staging =
        alice.submitJob(
            RiskDatabase.valuationJob("staging", RiskDatabase.positionsQueryHeldUntil(gate))
                .document());
    await(alice, staging, LIMIT, s -> s.state == JobStateName.STAGING_IN, "STAGING_IN");
    String queued = alice.submitJob(RiskDatabase.valuationJob("queued").document());
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(queued).state, "behind the stage-in");
    JobStatusInfo heldNow = alice.holdJob(queued);
    assertEquals("JobHeldUser (held by alice)", heldNow.reason);
    JobStateFault refused = assertThrows(JobStateFault.class, () -> alice.holdJob(staging));
    assertTrue(refused.getMessage().contains("STAGING_IN"), refused.getMessage());
    assertThrows(JobStateFault.class, () -> alice.holdJob(queued), "held already");

    Files.createFile(gate);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, staging, LIMIT).state);
    Thread.sleep(500); // the slot is free: only the hold keeps them back
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(queued).state);
    assertEquals(JobStateName.QUEUED, alice.getJobStatus(held).state);

    assertNull(alice.releaseJob(held).reason);
    alice.releaseJob(queued);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, held, LIMIT).state);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, queued, LIMIT).state);
    JobStateFault notHeld = assertThrows(JobStateFault.class, () -> alice.releaseJob(held));
    assertTrue(notHeld.getMessage().contains("is not held"), notHeld.getMessage());
  }

  @Test
  void anotherUsersJobIsNotFoundAsADependencyNorToHoldOrRelease() throws Exception {
    String bobs = bob.submitJob(TestJobs.job("bob's").shell("true", 60).held().document());
    InvalidJobFault refused =
        assertThrows(
            InvalidJobFault.class,
            () -> alice.submitJob(TestJobs.job("nosy").shell("true", 60).after(bobs).document()));
    ValidationResult report = refused.getFaultInfo();
    assertEquals(
        "no job " + bobs + " for user alice",
        report.problems.stream()
            .filter(p -> p.severity.equals("ERROR"))
            .findFirst()
            .orElseThrow()
            .message,
        "worded as every other unknown job");
    ValidationResult validated =
        alice.validateJob(TestJobs.job("nosy").shell("true", 60).afterAny(bobs).document());
    assertFalse(validated.valid);
    assertThrows(JobNotFoundFault.class, () -> alice.releaseJob(bobs));
    assertThrows(JobNotFoundFault.class, () -> alice.holdJob(bobs));
    bob.cancelJob(bobs);
    assertEquals(JobStateName.CANCELLED, bob.getJobStatus(bobs).state);
  }

  @Test
  void waitingJobsKeepWhatTheyWaitForAcrossACrashOfTheServer() throws Exception {
    io.gantry.testing.server.GantryTestServerBuilder builder =
        GantryTestServer.builder(dir.resolve("restart")).name("restart");
    String held;
    String after;
    try (GantryTestServer first = builder.start()) {
      JobManagement client = JobManagementClients.of(first);
      held = client.submitJob(TestJobs.job("held").shell("true", 60).held().document());
      after = client.submitJob(TestJobs.job("after").shell("true", 60).after(held).document());
      assertEquals("Dependency(after:" + held + ")", client.getJobStatus(after).reason);
      first.killHard();
    }
    try (GantryTestServer second = builder.start()) {
      JobManagement client = JobManagementClients.of(second);
      assertEquals("JobHeldUser (held by local)", client.getJobStatus(held).reason);
      assertEquals("Dependency(after:" + held + ")", client.getJobStatus(after).reason);
      client.releaseJob(held);
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, held, LIMIT).state);
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, after, LIMIT).state);
    }
  }

  // One job's output as the next job's input (gantry-job:JOB/FILE, docs/workflows.md): the
  // consumer waits for the producer and stages its file in like any other (checksum, manifest),
  // byte for byte; what it may not read is refused at validation.

  @Test
  void aJobAfterAnotherStagesInItsResultFileByteForByte() throws Exception {
    // the producer stages positions in, writes result.csv and loads it into SQL
    String producer = alice.submitJob(RiskDatabase.valuationJob("producer").document());
    String consumer =
        alice.submitJob(
            TestJobs.job("consumer")
                .stageIn("in/result.csv", "gantry-job:" + producer + "/result.csv")
                .stageIn("producer-says.txt", "gantry-job:" + producer + "/stdout.txt")
                .shell("grep -q \"$(cat in/result.csv | tail -1)\" in/result.csv", 60)
                .after(producer)
                .document());

    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, producer, LIMIT).state);
    JobStatusInfo end = awaitFinal(alice, consumer, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);

    Path made = server.jobDirectory(producer).resolve("result.csv");
    Path staged = server.jobDirectory(consumer).resolve("in/result.csv");
    assertArrayEquals(Files.readAllBytes(made), Files.readAllBytes(staged));
    assertTrue(Files.readString(staged).contains(producer), "the producer's own row");
    assertEquals(
        "valued " + RiskDatabase.POSITIONS + " positions\n",
        Files.readString(server.jobDirectory(consumer).resolve("producer-says.txt")));

    // staged like any file: in the manifest with its checksum, the URI as written
    Map<String, StagedFileInfo> in =
        alice.getJobResults(consumer).stagedIn.stream()
            .collect(Collectors.toMap(f -> f.target, f -> f));
    StagedFileInfo record = in.get("in/result.csv");
    assertEquals("gantry-job:" + producer + "/result.csv", record.source);
    assertEquals(Files.size(made), record.bytes);
    assertEquals(Sha256.of(made), record.checksum.replaceFirst("^sha256:", ""));
  }

  // Streaming between stages (gx:AfterStart, docs/workflows.md): the consumer starts when the
  // producer's program does and follows its file as it is written, to the same bytes.

  /** Writes 40,000 lines to its standard output, the second half once released. */
  private static TestJobs streamingProducer(String name, String end) {
    return TestJobs.job(name)
        .shell("seq 1 20000; while [ ! -e release ]; do sleep 0.05; done; " + end, 60);
  }

  /** Reads the producer's standard output and prints its line count and checksum. */
  private static TestJobs digestOf(String producer) {
    return TestJobs.job("digest")
        .stageIn("in.txt", "gantry-job:" + producer + "/stdout.txt")
        .shell("wc -l < in.txt; cksum < in.txt", 60);
  }

  /** Waits until the consumer's stage-in has copied the producer's first 20,000 lines. */
  private static void awaitFirstHalfStreamed(String consumer) {
    long half = 108_894; // bytes of `seq 1 20000`
    Path directory = server.jobDirectory(consumer);
    Await.until(
        "job " + consumer + " to have streamed " + half + " bytes",
        LIMIT,
        () -> {
          try (java.util.stream.Stream<Path> files = Files.list(directory)) {
            return files.anyMatch(
                f -> f.getFileName().toString().endsWith(".part") && f.toFile().length() == half);
          } catch (java.io.IOException e) {
            return false; // its directory is not made yet
          }
        });
  }

  @Test
  void aConsumerStreamsItsProducersFileWhileItRunsToTheSameBytesAsAfterIt() throws Exception {
    String producer = alice.submitJob(streamingProducer("producer", "seq 20001 40000").document());
    String streamed = alice.submitJob(digestOf(producer).afterStart(producer).document());

    awaitFirstHalfStreamed(streamed);
    assertEquals(JobStateName.RUNNING, alice.getJobStatus(producer).state, "still writing");
    assertEquals(JobStateName.STAGING_IN, alice.getJobStatus(streamed).state, "still reading");
    release(producer);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, producer, LIMIT).state);
    JobStatusInfo end = awaitFinal(alice, streamed, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);

    // the same consumer, staged after the producer ended (gx:After): the same bytes and result
    String staged = alice.submitJob(digestOf(producer).after(producer).document());
    JobStatusInfo stagedEnd = awaitFinal(alice, staged, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, stagedEnd.state, stagedEnd.failureReason);
    Path made = server.jobDirectory(producer).resolve("stdout.txt");
    assertArrayEquals(
        Files.readAllBytes(made),
        Files.readAllBytes(server.jobDirectory(streamed).resolve("in.txt")));
    String result = Files.readString(server.jobDirectory(staged).resolve("stdout.txt"));
    assertTrue(result.startsWith("40000\n"), result);
    assertEquals(result, Files.readString(server.jobDirectory(streamed).resolve("stdout.txt")));
    StagedFileInfo record = alice.getJobResults(streamed).stagedIn.get(0);
    assertEquals(Files.size(made), record.bytes);
    assertEquals(Sha256.of(made), record.checksum.replaceFirst("^sha256:", ""));
  }

  @Test
  void aProducerFailingMidStreamFailsItsConsumerNamingIt() throws Exception {
    String producer = alice.submitJob(streamingProducer("producer", "exit 3").document());
    String streamed = alice.submitJob(digestOf(producer).afterStart(producer).document());

    awaitFirstHalfStreamed(streamed);
    release(producer);
    assertEquals(JobStateName.FAILED, awaitFinal(alice, producer, LIMIT).state);
    JobStatusInfo end = awaitFinal(alice, streamed, LIMIT);
    assertEquals(JobStateName.FAILED, end.state);
    assertTrue(
        end.failureReason.contains(
            "job "
                + producer
                + " ended FAILED while this job read its file stdout.txt as it was written"),
        end.failureReason);
    assertNull(end.started, "its program never ran");
    assertFalse(Files.exists(server.jobDirectory(streamed).resolve("in.txt")), "nothing staged");

    // a consumer that would stream a producer that already failed never starts
    String late = alice.submitJob(digestOf(producer).afterStart(producer).document());
    JobStatusInfo never = awaitFinal(alice, late, LIMIT);
    assertTrue(
        never.failureReason.startsWith(
            "DependencyNeverSatisfied: job " + producer + " ended FAILED"),
        never.failureReason);
  }

  // The consumer's program reading while the producer writes (gx:Stream pipe): its input is a
  // FIFO the server feeds from its spill copy of the producer's file.

  /**
   * A one-pass consumer: sums the first column of the producer's output, streamed through a FIFO
   * ({@code pipe}) or staged after it ({@code null}); writes {@code half-seen} once it read line
   * 10,000, of the 20,000 written before the producer waits (awk, mawk here, reads its input in
   * whole blocks: the line it has seen must not be in the last block before the pause).
   */
  private static TestJobs summing(String producer, String delivery) {
    return reading(
        producer,
        delivery,
        "awk '{ s += $1 } NR == 10000 { print NR > \"half-seen\"; close(\"half-seen\") }"
            + " END { print NR, s }' in.txt");
  }

  /**
   * Runs {@code script} on the producer's output at {@code in.txt}, streamed as {@code delivery}.
   */
  private static TestJobs reading(String producer, String delivery, String script) {
    return reading(producer, delivery, "in.txt", script);
  }

  private static TestJobs reading(String producer, String delivery, String target, String script) {
    return TestJobs.job("consumer")
        .dataStaging(
            "<jsdl:DataStaging><jsdl:FileName>"
                + target
                + "</jsdl:FileName>"
                + "<jsdl:CreationFlag>overwrite</jsdl:CreationFlag>"
                + "<jsdl:Source><jsdl:URI>gantry-job:"
                + producer
                + "/stdout.txt</jsdl:URI></jsdl:Source>"
                + (delivery == null ? "" : "<gx:Stream>" + delivery + "</gx:Stream>")
                + "</jsdl:DataStaging>")
        .shell(script, 60);
  }

  private static void awaitFile(String job, String file) throws Exception {
    Path path = server.jobDirectory(job).resolve(file);
    try {
      Await.until(job + "'s " + file, LIMIT, () -> Files.exists(path));
    } catch (AssertionError e) {
      JobStatusInfo now = alice.getJobStatus(job);
      throw new AssertionError(e.getMessage() + "; " + now.state + ": " + now.failureReason, e);
    }
  }

  private static Path spill(String job) {
    return server.jobDirectory(job).getParent().resolve(".gantry-streams").resolve(job);
  }

  @Test
  void aPipedConsumerComputesWhileItsProducerWritesToTheSameResultAsAfterIt() throws Exception {
    String producer = alice.submitJob(streamingProducer("producer", "seq 20001 40000").document());
    String piped = alice.submitJob(summing(producer, "pipe").afterStart(producer).document());

    awaitFile(piped, "half-seen"); // its program read the first half ...
    assertEquals(JobStateName.RUNNING, alice.getJobStatus(producer).state, "... still written");
    assertEquals(JobStateName.RUNNING, alice.getJobStatus(piped).state);
    assertTrue(
        Files.readAttributes(
                server.jobDirectory(piped).resolve("in.txt"),
                java.nio.file.attribute.PosixFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS)
            .isOther(),
        "in.txt is a FIFO");
    release(producer);
    JobStatusInfo end = awaitFinal(alice, piped, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);

    String staged = alice.submitJob(summing(producer, null).after(producer).document());
    JobStatusInfo stagedEnd = awaitFinal(alice, staged, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, stagedEnd.state, stagedEnd.failureReason);
    String result = Files.readString(server.jobDirectory(staged).resolve("stdout.txt"));
    assertEquals("40000 800020000\n", result);
    assertEquals(result, Files.readString(server.jobDirectory(piped).resolve("stdout.txt")));
    Path made = server.jobDirectory(producer).resolve("stdout.txt");
    StagedFileInfo record = alice.getJobResults(piped).stagedIn.get(0);
    assertEquals("in.txt", record.target);
    assertEquals(Files.size(made), record.bytes);
    assertEquals(Sha256.of(made), record.checksum.replaceFirst("^sha256:", ""));
    assertFalse(Files.exists(spill(piped)), "the spill copy is removed");
  }

  @Test
  void aProducerFailingMidPipeFailsTheRunningConsumerNamingIt() throws Exception {
    String producer = alice.submitJob(streamingProducer("producer", "exit 3").document());
    String piped = alice.submitJob(summing(producer, "pipe").afterStart(producer).document());

    awaitFile(piped, "half-seen");
    release(producer);
    JobStatusInfo end = awaitFinal(alice, piped, LIMIT);
    assertEquals(JobStateName.FAILED, end.state);
    assertTrue(
        end.failureReason.contains(
            "job "
                + producer
                + " ended FAILED while this job read its file stdout.txt as it was written"),
        end.failureReason);
    assertTrue(end.started != null, "its program ran");
    assertEquals(
        "", Files.readString(server.jobDirectory(piped).resolve("stdout.txt")), "it was stopped");
    assertFalse(Files.exists(spill(piped)), "the spill copy is removed");
  }

  /**
   * The {@code file} delivery: the producer writes blocked gzip (bgzip), and the consumer's program
   * follows the growing file to its end-of-file block with gio's follow reader ({@code gio-cat
   * --follow}, node-programs/README.md "Reading streamed input"), computing while it is written.
   */
  @Test
  void aFileDeliveryIsFollowedByTheProgramToItsEndOfFileBlock() throws Exception {
    assertTrue(Files.isExecutable(GIO_CAT), "build the node programs first (scripts/build)");
    String producer =
        alice.submitJob(
            TestJobs.job("producer")
                .shell(
                    // 1.2 MB before the pause: bgzip's compressed blocks leave its buffers
                    "{ seq 1 200000; while [ ! -e release ]; do sleep 0.05; done; seq 200001"
                        + " 400000; } | bgzip -c",
                    60)
                .document());
    String followed =
        alice.submitJob(
            reading(
                    producer,
                    "file",
                    "in.csv.gz",
                    GIO_CAT
                        + " --follow 60 in.csv.gz | awk '{ s = (s + $1) % 1000003 } NR == 10000 {"
                        + " print NR >"
                        + " \"half-seen\"; close(\"half-seen\") } END { print NR, s }'")
                .afterStart(producer)
                .document());

    awaitFile(followed, "half-seen"); // read from the growing file ...
    assertEquals(JobStateName.RUNNING, alice.getJobStatus(producer).state, "... still written");
    release(producer);
    JobStatusInfo end = awaitFinal(alice, followed, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(
        "400000 " + (400_000L * 400_001L / 2) % 1_000_003L + "\n",
        Files.readString(server.jobDirectory(followed).resolve("stdout.txt")));
    Path made = server.jobDirectory(producer).resolve("stdout.txt");
    StagedFileInfo record = alice.getJobResults(followed).stagedIn.get(0);
    assertEquals(Files.size(made), record.bytes);
    assertEquals(Sha256.of(made), record.checksum.replaceFirst("^sha256:", ""));
    assertFalse(Files.exists(spill(followed)), "the spill copy is removed");
  }

  @Test
  void aFailingConsumerEndsItsStreamAndAnIdleOneEndsWithItsProducer() throws Exception {
    String producer = alice.submitJob(streamingProducer("producer", "seq 20001 40000").document());
    // reads a little, then fails: its stream stops, the producer goes on
    String failing =
        alice.submitJob(
            reading(producer, "pipe", "head -n 3 in.txt; exit 4").afterStart(producer).document());
    JobStatusInfo failed = awaitFinal(alice, failing, LIMIT);
    assertEquals(JobStateName.FAILED, failed.state);
    assertTrue(failed.failureReason.contains("exited with code 4"), failed.failureReason);
    assertFalse(Files.exists(spill(failing)), "its stream stopped");
    assertEquals(JobStateName.RUNNING, alice.getJobStatus(producer).state, "left running");

    // never opens its FIFO (the first half fills the pipe): it ends when its input does
    String idle =
        alice.submitJob(reading(producer, "pipe", "echo idle").afterStart(producer).document());
    awaitFile(idle, "stdout.txt");
    release(producer);
    JobStatusInfo end = awaitFinal(alice, idle, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, producer, LIMIT).state);
    assertEquals(
        Files.size(server.jobDirectory(producer).resolve("stdout.txt")),
        alice.getJobResults(idle).stagedIn.get(0).bytes);
  }

  @Test
  void whatAJobMayNotReadIsRefusedAtValidation() throws Exception {
    // held: never runs, so it stays unfinished for the whole test
    String held = alice.submitJob(TestJobs.job("held").shell("true", 60).held().document());
    String bobs = bob.submitJob(TestJobs.job("bob's").shell("true", 60).held().document());
    String unknown = JobId.random().toString();
    try {
      assertEquals(
          "no job " + unknown + " for user alice",
          refusal(reading(unknown + "/stdout.txt")),
          "an unknown job");
      assertEquals(
          "no job " + bobs + " for user alice",
          refusal(reading(bobs + "/stdout.txt")),
          "another user's job reads as an unknown one");
      assertEquals(
          "job "
              + held
              + " produces no file 'positions.csv'; it produces stdout.txt, stderr.txt (its"
              + " stage-out files, standard output and error)",
          refusal(reading(held + "/positions.csv")));
      assertEquals(
          "job "
              + held
              + " has not finished (QUEUED); name it in gx:Dependencies/gx:After so that this job"
              + " waits until it succeeds",
          refusal(reading(held + "/stdout.txt")));
      assertTrue(
          refusal(reading(held + "/stdout.txt").afterAny(held)).contains("has not finished"),
          "AfterAny also runs after a failure, which hands on no file");
      ValidationResult waiting =
          alice.validateJob(reading(held + "/stdout.txt").after(held).document());
      assertTrue(waiting.valid, () -> messages(waiting).toString());

      String target =
          refusal(
              TestJobs.job("writer")
                  .shell("true", 60)
                  .dataStaging(
                      "<jsdl:DataStaging><jsdl:FileName>x</jsdl:FileName>"
                          + "<jsdl:CreationFlag>overwrite</jsdl:CreationFlag><jsdl:Target><jsdl:URI>"
                          + "gantry-job:"
                          + held
                          + "/x</jsdl:URI></jsdl:Target></jsdl:DataStaging>"));
      assertTrue(target.contains("can only be a Source"), target);
      assertTrue(refusal(reading(held + "/../etc/passwd")).contains("no empty parts, '.' or '..'"));
    } finally {
      alice.cancelJob(held);
      bob.cancelJob(bobs);
    }
  }

  private static TestJobs reading(String jobAndFile) {
    return TestJobs.job("reader").shell("true", 60).stageIn("in.txt", "gantry-job:" + jobAndFile);
  }

  /** The one error validating {@code job} reports. */
  private static String refusal(TestJobs job) {
    ValidationResult report = alice.validateJob(job.document());
    assertFalse(report.valid);
    List<String> errors = messages(report);
    assertEquals(1, errors.size(), errors.toString());
    return errors
        .get(0)
        .replaceFirst("^DataStaging 1 \\(FileName in.txt\\) Source [^:]*:[^:]*: ", "");
  }

  private static List<String> messages(ValidationResult report) {
    return report.problems.stream()
        .filter(p -> p.severity.equals("ERROR"))
        .map(p -> p.message)
        .toList();
  }

  @Test
  void aChainRerunsFromANamedStageReusingTheOutputsUpstreamOfIt() throws Exception {
    // extract -> price -> report, each reading the stage before's standard output
    String extract =
        alice.submitJob(
            TestJobs.job("extract").shell("echo \"levels $$ $(date +%N)\"", 60).document());
    String price = alice.submitJob(reading("price", extract).document());
    String report = alice.submitJob(reading("report", price).document());
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, report, LIMIT).state);

    SOAPFaultException unknown =
        assertThrows(
            SOAPFaultException.class, () -> alice.resubmitChain(List.of(report), "pricing"));
    assertTrue(
        unknown
            .getMessage()
            .contains("no stage pricing in the chain; its stages are extract," + " price, report"),
        unknown.getMessage());
    assertThrows(JobNotFoundFault.class, () -> bob.resubmitChain(List.of(report), "price"));

    // given the chain's last job: price and report again, extract's output reused
    List<RerunStage> again = alice.resubmitChain(List.of(report), "price");
    assertEquals(List.of("price", "report"), again.stream().map(r -> r.stage).toList());
    assertEquals(List.of(price, report), again.stream().map(r -> r.originalJobId).toList());
    String newPrice = again.get(0).newJobId;
    String newReport = again.get(1).newJobId;
    JobStatusInfo end = awaitFinal(alice, newReport, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(report, end.resubmittedFrom);
    assertEquals(
        "gantry-job:" + extract + "/stdout.txt",
        alice.getJobResults(newPrice).stagedIn.get(0).source,
        "the stage upstream is not run again: its output is reused");
    assertEquals(
        "gantry-job:" + newPrice + "/stdout.txt",
        alice.getJobResults(newReport).stagedIn.get(0).source,
        "the stage downstream reads the new run's output");
    assertArrayEquals(
        Files.readAllBytes(server.jobDirectory(extract).resolve("stdout.txt")),
        Files.readAllBytes(server.jobDirectory(newPrice).resolve("in/upstream.txt")));
  }

  /**
   * A chain whose middle stage streams its input ({@code gx:AfterStart} and {@code gx:Stream file},
   * as the desk chain's pricing stages do) and was killed while it read: rerun from it, the new
   * stage reads the upstream stage's file, which the rerun reuses (it ended SUCCEEDED meanwhile),
   * and the chain ends with the bytes of a run that never failed.
   */
  @Test
  void aStreamingChainRerunsFromItsKilledMiddleStageToTheSameBytes() throws Exception {
    assertTrue(Files.isExecutable(GIO_CAT), "build the node programs first (scripts/build)");
    String chain =
        chain(
            TestJobs.job("generate")
                .shell(
                    "{ seq 1 200000; while [ ! -e release ]; do sleep 0.05; done; seq 200001"
                        + " 400000; } | bgzip -c",
                    60),
            TestJobs.job("price")
                .dataStaging(
                    "<jsdl:DataStaging><jsdl:FileName>in.csv.gz</jsdl:FileName>"
                        + "<jsdl:CreationFlag>overwrite</jsdl:CreationFlag>"
                        + "<jsdl:Source><jsdl:URI>gantry-job:generate/stdout.txt</jsdl:URI>"
                        + "</jsdl:Source><gx:Stream>file</gx:Stream></jsdl:DataStaging>")
                .shell(
                    GIO_CAT
                        + " --follow 60 in.csv.gz | awk '{ s = (s + $1) % 1000003 } NR == 10000 {"
                        + " print NR > \"half-seen\"; close(\"half-seen\") } END { print NR, s }'",
                    60)
                .afterStart("generate"),
            reading("report", "price"));
    Map<String, String> ids =
        alice.submitChain(TestJobs.documentOf(chain)).stream()
            .collect(Collectors.toMap(s -> s.stage, s -> s.jobId));
    String generate = ids.get("generate");
    String price = ids.get("price");
    String report = ids.get("report");

    awaitFile(price, "half-seen"); // the middle stage reads while generate writes ...
    alice.killJob(price); // ... and is killed
    assertEquals(JobStateName.KILLED, awaitFinal(alice, price, LIMIT).state);
    JobStatusInfo never = awaitFinal(alice, report, LIMIT);
    assertEquals(JobStateName.FAILED, never.state);
    assertTrue(never.failureReason.startsWith("DependencyNeverSatisfied"), never.failureReason);
    assertEquals(JobStateName.RUNNING, alice.getJobStatus(generate).state, "left running");
    release(generate);
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, generate, LIMIT).state);

    // rerun from the killed stage: generate (waited for with AfterStart) is reused, not run again
    List<RerunStage> again = alice.resubmitChain(List.of(report), "price");
    assertEquals(List.of("price", "report"), again.stream().map(r -> r.stage).toList());
    assertEquals(List.of(price, report), again.stream().map(r -> r.originalJobId).toList());
    String newPrice = again.get(0).newJobId;
    String newReport = again.get(1).newJobId;
    JobStatusInfo end = awaitFinal(alice, newReport, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(
        "400000 " + (400_000L * 400_001L / 2) % 1_000_003L + "\nreport\n",
        Files.readString(server.jobDirectory(newReport).resolve("stdout.txt")),
        "the bytes of a chain that never failed");
    Path made = server.jobDirectory(generate).resolve("stdout.txt");
    StagedFileInfo record = alice.getJobResults(newPrice).stagedIn.get(0);
    assertEquals("gantry-job:" + generate + "/stdout.txt", record.source, "generate reused");
    assertEquals(Sha256.of(made), record.checksum.replaceFirst("^sha256:", ""));
    assertEquals(-1L, Files.mismatch(made, server.jobDirectory(newPrice).resolve("in.csv.gz")));
  }

  @Test
  void aChainSubmittedAsOneUnitResolvesItsStagesAndIsStoredWholeOrNotAtAll() throws Exception {
    // written out of order, naming each other by stage: the server orders and resolves them
    String chain =
        chain(
            reading("report", "price"),
            reading("price", "extract"),
            TestJobs.job("extract").shell("echo \"levels $$ $(date +%N)\"", 60));
    List<ChainStage> stages = alice.submitChain(TestJobs.documentOf(chain));
    assertEquals(List.of("extract", "price", "report"), stages.stream().map(s -> s.stage).toList());
    Map<String, String> ids = stages.stream().collect(Collectors.toMap(s -> s.stage, s -> s.jobId));
    JobStatusInfo end = awaitFinal(alice, ids.get("report"), LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(
        "gantry-job:" + ids.get("price") + "/stdout.txt",
        alice.getJobResults(ids.get("report")).stagedIn.get(0).source,
        "a stage's name is its job's id once stored");
    String extracted =
        Files.readString(server.jobDirectory(ids.get("extract")).resolve("stdout.txt"));
    assertEquals(
        extracted + "price\nreport\n",
        Files.readString(server.jobDirectory(ids.get("report")).resolve("stdout.txt")));
    // the stored chain is a chain like any other: rerun from a stage
    assertEquals(
        List.of("price", "report"),
        alice.resubmitChain(List.of(ids.get("report")), "price").stream()
            .map(r -> r.stage)
            .toList());

    // one invalid stage: every stage's problem is reported, and no job is stored
    long before = alice.listJobs(List.of(), 0, 1, false).total;
    String broken =
        chain(
            TestJobs.job("extract").shell("true", 60),
            TestJobs.job("price")
                .stageIn("in/levels.txt", "gantry-job:extract/levels.csv")
                .shell("true", 60)
                .after("extract"),
            reading("report", "price"));
    InvalidJobFault refused =
        assertThrows(InvalidJobFault.class, () -> alice.submitChain(TestJobs.documentOf(broken)));
    assertEquals(
        List.of(
            "stage price: DataStaging 1 (FileName in/levels.txt) Source gantry-job:"
                + "extract/levels.csv: stage extract produces no file 'levels.csv'; it produces"
                + " stdout.txt, stderr.txt (its stage-out files, standard output and error)",
            "stage report is not checked: it names stage price, which is invalid"),
        messages(refused.getFaultInfo()));
    assertEquals(before, alice.listJobs(List.of(), 0, 1, false).total, "none stored");
    assertFalse(alice.validateJob(TestJobs.documentOf(broken)).valid, "validateJob, the same");
    InvalidJobFault cycle =
        assertThrows(
            InvalidJobFault.class,
            () ->
                alice.submitChain(
                    TestJobs.documentOf(chain(reading("a", "b"), reading("b", "a")))));
    assertEquals(
        List.of("stages a, b wait for each other (a cycle)"), messages(cycle.getFaultInfo()));
  }

  private static String chain(TestJobs... stages) {
    StringBuilder xml = new StringBuilder("<gx:JobChain xmlns:gx=\"urn:gantry:jsdl:ext:1\">");
    for (TestJobs stage : stages) {
      xml.append(stage.xml());
    }
    return xml.append("</gx:JobChain>").toString();
  }

  /** A stage that stages the standard output of {@code upstream} in, after it, and prints it. */
  private static TestJobs reading(String name, String upstream) {
    return TestJobs.job(name)
        .stageIn("in/upstream.txt", "gantry-job:" + upstream + "/stdout.txt")
        .shell("cat in/upstream.txt; echo " + name, 60)
        .after(upstream);
  }
}
