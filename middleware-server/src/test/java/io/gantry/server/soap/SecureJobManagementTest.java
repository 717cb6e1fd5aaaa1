package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.JobAudit;
import io.gantry.server.api.JobList;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.WebServiceException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every JobManagement operation against every kind of caller: the job's owner, another user, an
 * administrator, an anonymous client and a client with a wrong password. Over HTTPS, with a CXF
 * client that trusts the server's self-signed certificate by its fingerprint, once with HTTP Basic
 * and once with a WS-Security UsernameToken.
 */
class SecureJobManagementTest {
  static final Duration LIMIT = Duration.ofSeconds(30);
  static final String OWNER = "alice";
  static final String OTHER = "bob";
  static final String ADMIN = "root";
  static final String PASSWORD = "correct horse battery";

  @TempDir static Path dir;
  static GantryTestServer server;
  static String aliceJob;
  static final Map<String, JobManagement> clients = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    // every operation is tried with a wrong password: keep the login throttle (tested in
    // TlsAndLoginTest and LoginThrottleTest) from making the owner's next calls wait
    server =
        GantryTestServer.builder(dir)
            .secure()
            .setting("auth.failed-logins-before-delay", "1000")
            .account(new TestAccount(OWNER, PASSWORD, false, null))
            .account(new TestAccount(OTHER, PASSWORD, false, null))
            .account(new TestAccount(ADMIN, PASSWORD, true, null))
            .start();
    JobManagement alice = as(OWNER, new Login.Basic("", ""));
    aliceJob = alice.submitJob(TestJobs.job("alice's").shell("echo from alice", 10).document());
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(alice, aliceJob, LIMIT).state);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Stream<Login> logins() {
    return Stream.of(new Login.Basic("", ""), new Login.UsernameToken("", "", false));
  }

  static JobManagement as(String user, Login kind) {
    return clients.computeIfAbsent(
        user + "/" + kind.getClass().getSimpleName(),
        k -> JobManagementClients.of(server, Login.like(kind, user, PASSWORD)));
  }

  static JobManagement anonymous() {
    return clients.computeIfAbsent(
        "anonymous", k -> JobManagementClients.of(server, Login.ANONYMOUS));
  }

  static JobManagement wrongPassword(Login kind) {
    return clients.computeIfAbsent(
        "wrong/" + kind.getClass().getSimpleName(),
        k -> JobManagementClients.of(server, Login.like(kind, OWNER, PASSWORD + "!")));
  }

  /** Anonymous and wrong-password callers are refused before the operation runs. */
  static void assertRefused(Login kind, Function<JobManagement, Executable> call) {
    assertThrows(WebServiceException.class, call.apply(anonymous()), "anonymous");
    assertThrows(WebServiceException.class, call.apply(wrongPassword(kind)), "wrong password");
  }

  /** "Not yours" answers exactly as "no such job" does, so job ids cannot be probed. */
  static void assertNotFound(Function<String, Executable> call) {
    JobNotFoundFault notYours = assertThrows(JobNotFoundFault.class, call.apply(aliceJob));
    String unknown = JobId.random().value();
    JobNotFoundFault noSuch = assertThrows(JobNotFoundFault.class, call.apply(unknown));
    assertEquals(
        noSuch.getMessage().replace(unknown, "ID"), notYours.getMessage().replace(aliceJob, "ID"));
    assertEquals(noSuch.getFaultInfo().code, notYours.getFaultInfo().code);
  }

  @ParameterizedTest
  @MethodSource("logins")
  void submitJobNeedsAUserAndRecordsThemAsOwner(Login kind) throws Exception {
    long before = as(ADMIN, kind).listJobs(List.of(), 0, 100, true).total;
    assertRefused(kind, c -> () -> c.submitJob(TestJobs.job("sneaky").shell("true", 5).document()));
    assertEquals(
        before,
        as(ADMIN, kind).listJobs(List.of(), 0, 100, true).total,
        "a refused submit queues nothing");

    String bobs = as(OTHER, kind).submitJob(TestJobs.job("bob's").shell("true", 5).document());
    assertEquals(OTHER, as(OTHER, kind).getJobStatus(bobs).owner);
    awaitFinal(as(OTHER, kind), bobs, LIMIT);
  }

  @ParameterizedTest
  @MethodSource("logins")
  void validateJobNeedsAUser(Login kind) throws Exception {
    assertRefused(kind, c -> () -> c.validateJob(TestJobs.job("v").shell("true", 5).document()));
    for (String user : List.of(OWNER, OTHER, ADMIN)) {
      assertTrue(
          as(user, kind).validateJob(TestJobs.job("v").shell("true", 5).document()).valid, user);
    }
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getJobStatusShowsAJobToItsOwnerAndAdministratorsOnly(Login kind) throws Exception {
    assertEquals(aliceJob, as(OWNER, kind).getJobStatus(aliceJob).jobId);
    assertEquals(aliceJob, as(ADMIN, kind).getJobStatus(aliceJob).jobId);
    assertNotFound(id -> () -> as(OTHER, kind).getJobStatus(id));
    assertRefused(kind, c -> () -> c.getJobStatus(aliceJob));
    // waiting for a job is asking for its status: the same rights, however long the wait
    assertEquals(JobStateName.SUCCEEDED, as(OWNER, kind).waitForJob(aliceJob, 5).state);
    assertEquals(JobStateName.SUCCEEDED, as(ADMIN, kind).waitForJob(aliceJob, 5).state);
    assertNotFound(id -> () -> as(OTHER, kind).waitForJob(id, 5));
    assertRefused(kind, c -> () -> c.waitForJob(aliceJob, 5));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getJobStatusesMarksOtherUsersJobsAsNotFound(Login kind) {
    assertEquals(null, as(OWNER, kind).getJobStatuses(List.of(aliceJob)).get(0).notFound);
    assertEquals(null, as(ADMIN, kind).getJobStatuses(List.of(aliceJob)).get(0).notFound);
    List<JobStatusInfo> other = as(OTHER, kind).getJobStatuses(List.of(aliceJob));
    assertEquals(1, size(other));
    assertEquals(true, other.get(0).notFound, "looks exactly like an unknown id");
    assertEquals(null, other.get(0).owner, "nothing about the job is told");
    assertRefused(kind, c -> () -> c.getJobStatuses(List.of(aliceJob)));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void listJobsListsOwnJobsAndEveryonesOnlyForAdministrators(Login kind) throws Exception {
    assertTrue(ids(as(OWNER, kind).listJobs(List.of(), 0, 100, false)).contains(aliceJob));
    assertFalse(ids(as(OTHER, kind).listJobs(List.of(), 0, 100, false)).contains(aliceJob));
    assertFalse(
        ids(as(ADMIN, kind).listJobs(List.of(), 0, 100, false)).contains(aliceJob),
        "an admin's own list");
    assertTrue(ids(as(ADMIN, kind).listJobs(List.of(), 0, 100, true)).contains(aliceJob));
    assertThrows(AccessDeniedFault.class, () -> as(OTHER, kind).listJobs(List.of(), 0, 100, true));
    assertThrows(AccessDeniedFault.class, () -> as(OWNER, kind).listJobs(List.of(), 0, 100, true));
    assertRefused(kind, c -> () -> c.listJobs(List.of(), 0, 100, false));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void cancelJobReachesOnlyTheOwnersAndAdministratorsJobs(Login kind) {
    // The job has ended: its owner and an admin are told so; anyone else learns nothing.
    assertThrows(JobStateFault.class, () -> as(OWNER, kind).cancelJob(aliceJob));
    assertThrows(JobStateFault.class, () -> as(ADMIN, kind).cancelJob(aliceJob));
    assertNotFound(id -> () -> as(OTHER, kind).cancelJob(id));
    assertRefused(kind, c -> () -> c.cancelJob(aliceJob));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void killJobReachesOnlyTheOwnersAndAdministratorsJobs(Login kind) {
    assertThrows(JobStateFault.class, () -> as(OWNER, kind).killJob(aliceJob));
    assertThrows(JobStateFault.class, () -> as(ADMIN, kind).killJob(aliceJob));
    assertNotFound(id -> () -> as(OTHER, kind).killJob(id));
    assertRefused(kind, c -> () -> c.killJob(aliceJob));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getJobOutputShowsOutputToItsOwnerAndAdministratorsOnly(Login kind) throws Exception {
    for (String user : List.of(OWNER, ADMIN)) {
      byte[] data = as(user, kind).getJobOutput(aliceJob, OutputStreamName.STDOUT, 0, 65536).data;
      assertEquals("from alice\n", new String(data, java.nio.charset.StandardCharsets.UTF_8), user);
    }
    assertNotFound(id -> () -> as(OTHER, kind).getJobOutput(id, OutputStreamName.STDOUT, 0, 65536));
    assertRefused(kind, c -> () -> c.getJobOutput(aliceJob, OutputStreamName.STDOUT, 0, 65536));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getJobResultsShowsResultsToItsOwnerAndAdministratorsOnly(Login kind) throws Exception {
    assertEquals(JobStateName.SUCCEEDED, as(OWNER, kind).getJobResults(aliceJob).state);
    assertEquals(JobStateName.SUCCEEDED, as(ADMIN, kind).getJobResults(aliceJob).state);
    assertNotFound(id -> () -> as(OTHER, kind).getJobResults(id));
    assertRefused(kind, c -> () -> c.getJobResults(aliceJob));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getJobAuditShowsTheTrailToItsOwnerAndAdministratorsOnly(Login kind) throws Exception {
    JobAudit own = as(OWNER, kind).getJobAudit(aliceJob);
    assertEquals("alice", own.owner);
    assertEquals("submitted by alice", own.entries.get(0).text, "the trail names who submitted");
    assertEquals(own.entries.size(), as(ADMIN, kind).getJobAudit(aliceJob).entries.size());
    assertNotFound(id -> () -> as(OTHER, kind).getJobAudit(id));
    assertRefused(kind, c -> () -> c.getJobAudit(aliceJob));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getJobDefinitionShowsTheDefinitionToItsOwnerAndAdministratorsOnly(Login kind)
      throws Exception {
    assertTrue(as(OWNER, kind).getJobDefinition(aliceJob).getJobDefinition() != null);
    assertTrue(as(ADMIN, kind).getJobDefinition(aliceJob).getJobDefinition() != null);
    assertNotFound(id -> () -> as(OTHER, kind).getJobDefinition(id));
    assertRefused(kind, c -> () -> c.getJobDefinition(aliceJob));
  }

  @ParameterizedTest
  @MethodSource("logins")
  void getServerInfoNeedsAUser(Login kind) {
    for (String user : List.of(OWNER, OTHER, ADMIN)) {
      assertEquals("0.1.0", as(user, kind).getServerInfo().version, user);
    }
    assertRefused(kind, c -> c::getServerInfo);
  }

  /** An empty answer arrives as null through CXF's unwrapped list. */
  private static int size(List<JobStatusInfo> statuses) {
    return statuses == null ? 0 : statuses.size();
  }

  private static List<String> ids(JobList list) {
    return list.jobs.stream().map((JobStatusInfo s) -> s.jobId).toList();
  }
}
