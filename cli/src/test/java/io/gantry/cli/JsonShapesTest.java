package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The documented --json shapes (cli/README.md): the same keys, in the same order, every time. */
@ExtendWith(CliServers.Plain.class)
class JsonShapesTest {
  static final List<String> JOB_KEYS =
      List.of(
          "jobId",
          "name",
          "owner",
          "state",
          "final",
          "phase",
          "submitted",
          "started",
          "finished",
          "exitCode",
          "failureReason",
          "reason",
          "parameters",
          "resubmittedFrom",
          "schedule",
          "scheduledFor",
          "failedTasks");
  static final ObjectMapper MAPPER = new ObjectMapper();

  static GantryRun gantry;
  static String jobId;
  static JsonNode submitted;

  @BeforeAll
  static void runHelloMpi(GantryTestServer server) throws Exception {
    gantry = new GantryRun(server.baseUrl());
    submitted = json(0, "--json", "submit", "--wait", TestJobs.HELLO_MPI.toString());
    jobId = submitted.get("jobId").asText();
  }

  static JsonNode json(int exitCode, String... args) throws Exception {
    Result result = gantry.run(args);
    assertEquals(exitCode, result.exitCode(), result.toString());
    assertEquals("", result.err(), result.toString());
    return MAPPER.readTree(result.out());
  }

  static List<String> keys(JsonNode node) {
    List<String> keys = new ArrayList<>();
    node.fieldNames().forEachRemaining(keys::add);
    return keys;
  }

  @Test
  void submitWithWaitGivesTheIdTheFinalStatusAndTheOfflineProblems() {
    assertEquals(List.of("jobId", "status", "problems"), keys(submitted));
    assertEquals(JOB_KEYS, keys(submitted.get("status")));
    assertEquals("SUCCEEDED", submitted.get("status").get("state").asText());
    assertEquals(true, submitted.get("status").get("final").asBoolean());
    assertEquals(0, submitted.get("status").get("exitCode").asInt());
    assertEquals(0, submitted.get("problems").size());
  }

  @Test
  void statusWaitCancelAndKillShapes() throws Exception {
    JsonNode status = json(0, "status", "--json", jobId);
    assertEquals(List.of("jobs", "notFound"), keys(status));
    assertEquals(JOB_KEYS, keys(status.get("jobs").get(0)));
    assertEquals(JOB_KEYS, keys(json(0, "wait", "--json", jobId)));
    Result partly = gantry.run("status", "--json", jobId, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    assertEquals(4, partly.exitCode(), partly.toString());
    JsonNode found = MAPPER.readTree(partly.out());
    assertEquals(jobId, found.get("jobs").get(0).get("jobId").asText());
    assertEquals("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", found.get("notFound").get(0).asText());
  }

  @Test
  void listShape() throws Exception {
    JsonNode list = json(0, "list", "--json");
    assertEquals(List.of("total", "offset", "jobs"), keys(list));
    assertEquals(JOB_KEYS, keys(list.get("jobs").get(0)));
  }

  @Test
  void outputResultsAndDefinitionShapes() throws Exception {
    JsonNode output = json(0, "output", "--json", jobId);
    assertEquals(List.of("jobId", "stream", "bytes", "complete", "text"), keys(output));
    assertEquals(
        "Hello, world, from an MPI rank\nHello, world, from an MPI rank\n",
        output.get("text").asText());
    assertEquals(62, output.get("bytes").asLong());
    assertEquals(true, output.get("complete").asBoolean());
    JsonNode results = json(0, "results", "--json", jobId);
    assertEquals(List.of("jobId", "state", "stagedIn", "stagedOut"), keys(results));
    JsonNode definition = json(0, "definition", "--json", jobId);
    assertEquals(List.of("jobId", "xml", "parameters"), keys(definition));
    JsonNode files = json(0, "files", "--json", jobId);
    assertEquals(List.of("jobId", "files"), keys(files));
    assertEquals(List.of("path", "size", "type"), keys(files.get("files").get(0)));
  }

  @Test
  void serverInfoAndValidateShapes() throws Exception {
    JsonNode info = json(0, "server-info", "--json");
    assertEquals(
        List.of(
            "endpoint",
            "version",
            "apiNamespace",
            "totalSlots",
            "maxQueuedJobsPerUser",
            "maxJobDefinitionBytes",
            "passwordKeyFingerprint",
            "passwordPublicKey"),
        keys(info));
    assertEquals("urn:gantry:jobmanagement:1", info.get("apiNamespace").asText());
    JsonNode validate = json(0, "validate", "--json", TestJobs.HELLO_MPI.toString());
    assertEquals(List.of("files"), keys(validate));
    assertEquals(List.of("file", "valid", "problems"), keys(validate.get("files").get(0)));
  }

  @Test
  void loginShapeOverPlainHttpHasNoFingerprintToPin(GantryTestServer server, @TempDir Path dir)
      throws Exception {
    Path loginFile = dir.resolve("config.properties");
    Result login =
        new GantryRun(
                List.of("--server", server.baseUrl(), "--user", "carol"),
                Map.of(
                    LoginFile.VARIABLE,
                    loginFile.toString(),
                    Invocation.PASSWORD_VARIABLE,
                    "ignored without accounts"),
                Optional.empty())
            .run("login", "--json");
    assertEquals(0, login.exitCode(), login.toString());
    assertEquals("", login.err(), login.toString());
    JsonNode json = MAPPER.readTree(login.out());
    assertEquals(
        List.of(
            "server", "user", "serverFingerprint", "loginFile", "sessionToken", "sessionExpires"),
        keys(json));
    assertEquals(true, json.get("serverFingerprint").isNull(), login.toString());
    assertEquals(
        new StoredLogin(server.baseUrl(), "carol", null),
        new LoginFile(loginFile).read().orElseThrow());
  }
}
