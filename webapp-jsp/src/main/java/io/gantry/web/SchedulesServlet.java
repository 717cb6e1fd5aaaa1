package io.gantry.web;

import io.gantry.jsdl.HardenedXml;
import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.MissedRunsName;
import io.gantry.server.api.ParameterValue;
import io.gantry.server.api.ScheduleInfo;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.Part;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.xml.sax.SAXException;

/**
 * The schedules page, {@code /schedules}: the user's schedules (every user's for an administrator)
 * with pause, resume and remove, and a form that adds one from a saved draft ({@code POST
 * /schedules/add}) or an uploaded file ({@code POST /schedules/upload}, multipart). Every action
 * goes through the SOAP service's own rules (a user acts on their own schedules only) and answers
 * with a redirect to the page, which shows what happened once.
 */
final class SchedulesServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final String NOTICE = "gantry.schedules-notice";
  static final long MAX_UPLOAD_BYTES = WizardServlet.MAX_UPLOAD_BYTES;

  private final transient JobManagementService service;
  private final transient DraftStore drafts;

  SchedulesServlet(JobManagementService service, DraftStore drafts) {
    this.service = service;
    this.drafts = drafts;
  }

  /** What the last action did, shown once. */
  record Notice(String text, boolean error) implements java.io.Serializable {}

  /** One row of the table, times as text. */
  public record Row(
      String id,
      String name,
      String owner,
      String cron,
      String timeZone,
      String missed,
      boolean paused,
      String next,
      String last,
      String lastJobId,
      String lastNote,
      String parameters) {
    static Row of(ScheduleInfo s) {
      return new Row(
          s.scheduleId,
          s.name,
          s.owner,
          s.cron,
          s.timeZone,
          s.missedRuns == MissedRunsName.SKIP ? "skip" : "run once",
          s.paused,
          s.nextTime == null ? "" : s.nextTime.toString(),
          s.lastTime == null ? "" : s.lastTime.toString(),
          s.lastJobId,
          s.lastNote,
          s.parameters == null
              ? ""
              : String.join(", ", s.parameters.stream().map(p -> p.name + "=" + p.value).toList()));
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (request.getPathInfo() != null && !request.getPathInfo().equals("/")) {
      Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no such schedules page");
      return;
    }
    SignedInUser user = SignedInUser.of(request);
    List<ScheduleInfo> schedules;
    try {
      schedules = Pages.jobsOf(service, request).listSchedules(user.admin());
    } catch (AccessDeniedFault e) {
      throw new ServletException(e); // an administrator may always list them all
    }
    HttpSession session = request.getSession();
    if (session.getAttribute(NOTICE) instanceof Notice n) {
      request.setAttribute("notice", n.text());
      request.setAttribute("noticeError", n.error());
      session.removeAttribute(NOTICE);
    }
    request.setAttribute("schedules", schedules.stream().map(Row::of).toList());
    request.setAttribute("drafts", drafts.list(user.name()));
    Pages.render(request, response, "schedules", "Schedules");
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    JobManagementService jobs = Pages.jobsOf(service, request);
    Notice notice;
    try {
      notice =
          switch (path) {
            case "/pause" -> done("Paused", jobs.pauseSchedule(request.getParameter("id")));
            case "/resume" -> done("Resumed", jobs.resumeSchedule(request.getParameter("id")));
            case "/remove" -> done("Removed", jobs.removeSchedule(request.getParameter("id")));
            case "/add" -> add(request, jobs, fromDraft(request));
            case "/upload" -> add(request, jobs, fromUpload(request));
            default -> null;
          };
    } catch (IllegalArgumentException e) {
      // the service's argument errors name the argument: the user's to fix
      notice = new Notice(e.getMessage(), true);
    } catch (SourceProblem e) {
      notice = new Notice(e.getMessage(), true);
    }
    if (notice == null) {
      Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no such schedules page");
      return;
    }
    request.getSession().setAttribute(NOTICE, notice);
    response.sendRedirect(request.getContextPath() + "/schedules");
  }

  private static Notice done(String what, ScheduleInfo s) {
    return new Notice(what + " schedule " + s.name + ".", false);
  }

  private static Notice add(HttpServletRequest request, JobManagementService jobs, byte[] xml)
      throws SourceProblem {
    JobDocument document;
    try (InputStream in = new ByteArrayInputStream(xml)) {
      document =
          new JobDocument(
              HardenedXml.parse(in).getDocumentElement(), values(request.getParameter("values")));
    } catch (SAXException | IOException e) {
      throw new SourceProblem("The job is not XML: " + e.getMessage());
    }
    String missed = request.getParameter("missed");
    try {
      ScheduleInfo added =
          jobs.addSchedule(
              request.getParameter("name"),
              request.getParameter("cron"),
              request.getParameter("timeZone"),
              "skip".equals(missed) ? MissedRunsName.SKIP : MissedRunsName.RUN_ONCE,
              document,
              request.getParameter("calendar"));
      return new Notice(
          "Added schedule " + added.name + "; its next job is submitted at " + added.nextTime + ".",
          false);
    } catch (InvalidJobFault e) {
      return new Notice(
          "Not added: the job is invalid: "
              + String.join(
                  "; ",
                  e.getFaultInfo().problems.stream()
                      .filter(p -> "ERROR".equals(p.severity))
                      .map(p -> p.message)
                      .toList())
              + ".",
          true);
    }
  }

  /** NAME=VALUE, one a line, as on the command line's --set. */
  static List<ParameterValue> values(String text) throws SourceProblem {
    List<ParameterValue> values = new ArrayList<>();
    if (text == null) {
      return values;
    }
    for (String line : text.split("\\R")) {
      if (line.isBlank()) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new SourceProblem("Write each value as NAME=VALUE on a line of its own: " + line);
      }
      values.add(new ParameterValue(line.substring(0, eq).strip(), line.substring(eq + 1)));
    }
    return values;
  }

  private byte[] fromDraft(HttpServletRequest request) throws IOException, SourceProblem {
    String name = request.getParameter("draft");
    Optional<String> draft =
        DraftStore.validName(name)
            ? drafts.load(SignedInUser.of(request).name(), name)
            : Optional.empty();
    if (draft.isEmpty()) {
      throw new SourceProblem("There is no draft " + name + "; choose one of yours.");
    }
    return draft.get().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] fromUpload(HttpServletRequest request)
      throws IOException, ServletException, SourceProblem {
    Part file;
    try {
      file = request.getPart("file");
    } catch (IOException | ServletException | RuntimeException e) {
      throw new SourceProblem(
          "The upload could not be read (at most "
              + MAX_UPLOAD_BYTES / (1024 * 1024)
              + " MiB, a multipart form with the field \"file\").");
    }
    try {
      if (file == null || file.getSize() == 0) {
        throw new SourceProblem("Choose a JSDL file to schedule.");
      }
      try (InputStream in = file.getInputStream()) {
        return in.readNBytes((int) MAX_UPLOAD_BYTES);
      }
    } finally {
      for (Part part : request.getParts()) {
        part.delete();
      }
    }
  }

  /** What is wrong with the job the user chose, in words for the page. */
  static final class SourceProblem extends Exception {
    private static final long serialVersionUID = 1L;

    SourceProblem(String message) {
      super(message);
    }
  }
}
