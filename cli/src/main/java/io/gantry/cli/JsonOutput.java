package io.gantry.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gantry.cli.soap.AuditEntry;
import io.gantry.cli.soap.JobAudit;
import io.gantry.cli.soap.JobList;
import io.gantry.cli.soap.JobResults;
import io.gantry.cli.soap.JobStatus;
import io.gantry.cli.soap.ServerInfo;
import io.gantry.cli.soap.StagedFile;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --json} shapes. Built as ordered maps rather than by serialising the generated SOAP
 * classes, so the keys are chosen here, stay stable when the WSDL grows, and are always present
 * (null when unknown). Times are ISO-8601 UTC strings. Shapes are listed in README.md.
 */
final class JsonOutput {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonOutput() {}

  static void print(PrintWriter out, Object document) {
    try {
      out.println(MAPPER.writeValueAsString(document));
      out.flush();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }

  static Map<String, Object> job(JobStatus job) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("jobId", job.getJobId());
    json.put("name", job.getName());
    json.put("owner", job.getOwner());
    json.put("state", job.getState() == null ? null : job.getState().value());
    json.put("final", job.getState() != null && JobStates.isFinal(job.getState()));
    json.put("phase", job.getPhase());
    json.put("submitted", Times.json(job.getSubmitted()));
    json.put("started", Times.json(job.getStarted()));
    json.put("finished", Times.json(job.getFinished()));
    json.put("exitCode", job.getExitCode());
    json.put("failureReason", job.getFailureReason());
    json.put("reason", job.getReason());
    json.put("parameters", ParameterValues.json(job.getParameter()));
    json.put("resubmittedFrom", job.getResubmittedFrom());
    json.put("schedule", job.getSchedule());
    json.put("scheduledFor", Times.json(job.getScheduledFor()));
    json.put("failedTasks", job.getFailedTasks());
    return json;
  }

  static List<Map<String, Object>> jobs(List<JobStatus> jobs) {
    List<Map<String, Object>> json = new ArrayList<>();
    jobs.forEach(j -> json.add(job(j)));
    return json;
  }

  static Map<String, Object> list(JobList list) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("total", list.getTotal());
    json.put("offset", list.getOffset());
    json.put("jobs", jobs(list.getJob()));
    return json;
  }

  static Map<String, Object> results(JobResults results) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("jobId", results.getJobId());
    json.put("state", results.getState() == null ? null : results.getState().value());
    json.put("stagedIn", stagedFiles(results.getStagedIn()));
    json.put("stagedOut", stagedFiles(results.getStagedOut()));
    return json;
  }

  static Map<String, Object> audit(JobAudit audit) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("jobId", audit.getJobId());
    json.put("owner", audit.getOwner());
    List<Map<String, Object>> entries = new ArrayList<>();
    for (AuditEntry e : audit.getEntry()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("at", Times.json(e.getAt()));
      entry.put("kind", e.getKind());
      entry.put("fromState", e.getFromState() == null ? null : e.getFromState().value());
      entry.put("toState", e.getToState() == null ? null : e.getToState().value());
      entry.put("text", e.getText());
      entry.put(
          "movement",
          e.getMovement() == null ? null : stagedFiles(List.of(e.getMovement())).get(0));
      entries.add(entry);
    }
    json.put("entries", entries);
    return json;
  }

  private static List<Map<String, Object>> stagedFiles(List<StagedFile> files) {
    List<Map<String, Object>> json = new ArrayList<>();
    for (StagedFile f : files) {
      Map<String, Object> file = new LinkedHashMap<>();
      file.put("step", f.getStep());
      file.put("source", f.getSource());
      file.put("target", f.getTarget());
      file.put("rows", f.getRows());
      file.put("bytes", f.getBytes());
      file.put("checksum", f.getChecksum());
      file.put("seconds", f.getSeconds());
      json.add(file);
    }
    return json;
  }

  static Map<String, Object> serverInfo(String endpoint, ServerInfo info) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("endpoint", endpoint);
    json.put("version", info.getVersion());
    json.put("apiNamespace", info.getApiNamespace());
    json.put("totalSlots", info.getTotalSlots());
    json.put("maxQueuedJobsPerUser", info.getMaxQueuedJobsPerUser());
    json.put("maxJobDefinitionBytes", info.getMaxJobDefinitionBytes());
    json.put("passwordKeyFingerprint", info.getPasswordKeyFingerprint());
    json.put("passwordPublicKey", info.getPasswordPublicKey());
    return json;
  }

  /** A problem of a job description, from the offline parser or the server's report. */
  static Map<String, Object> problem(
      String severity, int line, int column, String path, String message) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("severity", severity);
    json.put("line", line);
    json.put("column", column);
    json.put("path", path);
    json.put("message", message);
    return json;
  }
}
