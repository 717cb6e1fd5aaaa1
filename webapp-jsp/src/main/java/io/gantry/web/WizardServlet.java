package io.gantry.web;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JsdlDefaults;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.ParameterValue;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.web.RefusedRequest;
import io.gantry.server.web.WebFaceContext.CredentialNames;
import io.gantry.web.WizardStage.Kind;
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
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.w3c.dom.Element;

/**
 * The job wizard, {@code /wizard}: one server-side form per step, kept in the HTTP session.
 *
 * <ol>
 *   <li>Every step is a POST form; whatever button was pressed, the step's fields are saved first
 *       and checked (numbers, NAME=value lines), and "Next" stays put while a field is wrong.
 *   <li>A typed password is encrypted with the server's password key while the step is read; the
 *       session and the document only ever hold the {@code ENC(...)} value.
 *   <li>The review composes the JSDL document and has the server validate it (validateJob, the
 *       API's report); each problem is also placed next to its field, and from then on every posted
 *       step is validated again, so the marks stay current.
 *   <li>A job template's parameters are declared on their own step; the review has one field per
 *       parameter, whose values go with the document to validateJob and submitJob as the API's
 *       parameter values (the server binds them; the wizard never writes them into the document).
 *   <li>Then: download ({@code /wizard/download}), save as a draft, or submit (to {@code
 *       /jobs/ID}).
 * </ol>
 *
 * {@code /wizard/upload} reads an existing JSDL file (multipart, the CSRF token in the query) into
 * the wizard; see {@link WizardJsdlImporter} for what it refuses.
 */
final class WizardServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  static final String SESSION_JOB = "gantry.wizard";
  private static final String SESSION_NOTICE = "gantry.wizard.notice";
  static final long MAX_UPLOAD_BYTES = 4L * 1024 * 1024;
  static final long MAX_UPLOAD_MIB = MAX_UPLOAD_BYTES / 1024 / 1024;

  /** The whole multipart request: the file and room for the form's boundaries and headers. */
  static final long MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

  private static final String TOO_LARGE =
      "The file is larger than "
          + MAX_UPLOAD_MIB
          + " MiB; Gantry accepts job descriptions up to "
          + MAX_UPLOAD_MIB
          + " MiB.";
  private final transient JobManagementService service;
  private final transient DraftStore drafts;
  private final transient JsdlParser parser = new JsdlParser();
  private final transient Function<String, CredentialNames> credentialNames;

  WizardServlet(
      JobManagementService service,
      DraftStore drafts,
      Function<String, CredentialNames> credentialNames) {
    this.service = service;
    this.drafts = drafts;
    this.credentialNames = credentialNames;
  }

  /** The session's wizard job, made empty on first use. */
  static WizardJob jobOf(HttpSession session) {
    Object job = session.getAttribute(SESSION_JOB);
    if (job instanceof WizardJob j) {
      return j;
    }
    WizardJob fresh = WizardJob.fresh();
    session.setAttribute(SESSION_JOB, fresh);
    return fresh;
  }

  static void notice(HttpSession session, String message) {
    session.setAttribute(SESSION_NOTICE, message);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    WizardJob job = jobOf(request.getSession());
    if (path.equals("/download")) {
      download(job, response);
      return;
    }
    if (!path.isEmpty() && !path.equals("/")) {
      Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no such wizard page");
      return;
    }
    WizardStep step =
        WizardStep.bySlug(String.valueOf(request.getParameter("step")))
            .orElse(WizardStep.IDENTIFICATION);
    render(request, response, job, step);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    if (path.equals("/upload")) {
      upload(request, response);
      return;
    }
    HttpSession session = request.getSession();
    WizardJob job = jobOf(session);
    WizardStep step =
        WizardStep.bySlug(String.valueOf(request.getParameter("step")))
            .orElse(WizardStep.IDENTIFICATION);
    String go = String.valueOf(request.getParameter("go"));
    if (go.equals("reset")) {
      session.setAttribute(SESSION_JOB, WizardJob.fresh());
      notice(session, "The wizard starts again with a new job (the named application mcvar).");
      redirect(request, response, WizardStep.IDENTIFICATION, "");
      return;
    }
    boolean read = readStep(request, job, step);
    if (job.reviewed()) {
      validate(request, job);
    }
    if (!read) {
      notice(
          session,
          "The list of stages or parameters changed in another window; this form was not saved."
              + " Please enter it again.");
    }
    act(request, response, job, step, go);
  }

  private boolean readStep(HttpServletRequest request, WizardJob job, WizardStep step) {
    Map<String, String[]> params = request.getParameterMap();
    if (step == WizardStep.PARAMETERS) {
      return WizardForm.readParameters(job.getParameters(), params);
    }
    if (step == WizardStep.REVIEW) {
      WizardForm.readValues(job, params);
      return true;
    }
    if (step.staging()) {
      return WizardForm.readStages(
          job.stages(step == WizardStep.PRE_STAGING),
          params,
          (stage, secret) -> seal(request, stage, secret));
    }
    WizardForm.readJobFields(step, params, job);
    return true;
  }

  private void act(
      HttpServletRequest request,
      HttpServletResponse response,
      WizardJob job,
      WizardStep step,
      String go)
      throws ServletException, IOException {
    String[] action = go.split(":", 2);
    String argument = action.length > 1 ? action[1] : "";
    switch (action[0]) {
      case "next" ->
          redirect(request, response, stepHasOwnErrors(job, step) ? step : step.next(), "");
      case "back" -> redirect(request, response, step.previous(), "");
      case "goto" -> redirect(request, response, WizardStep.bySlug(argument).orElse(step), "");
      case "add", "remove", "up", "down" -> {
        String anchor = arrange(job, step, action[0], argument);
        job.serverProblems().clear();
        if (job.reviewed()) {
          validate(request, job);
        }
        redirect(request, response, step, anchor);
      }
      case "submit" -> submit(request, response, job);
      case "save-draft" -> saveDraft(request, response, job);
      default -> redirect(request, response, step, "");
    }
  }

  private static boolean stepHasOwnErrors(WizardJob job, WizardStep step) {
    if (step == WizardStep.PARAMETERS) {
      return job.getParameters().stream().anyMatch(p -> !p.fieldErrors().isEmpty());
    }
    if (step.staging()) {
      return job.stages(step == WizardStep.PRE_STAGING).stream()
          .anyMatch(s -> !s.fieldErrors().isEmpty());
    }
    return job.fieldErrors().keySet().stream().anyMatch(step.fields::contains);
  }

  /** Adds, removes or moves a stage; returns the anchor of the stage to show. */
  private static String arrange(WizardJob job, WizardStep step, String what, String argument) {
    if (step == WizardStep.PARAMETERS) {
      return arrangeParameters(job.getParameters(), what, argument);
    }
    if (!step.staging()) {
      return "";
    }
    boolean pre = step == WizardStep.PRE_STAGING;
    List<WizardStage> stages = job.stages(pre);
    String prefix = pre ? "#pre-stage-" : "#post-stage-";
    if (what.equals("add")) {
      Kind kind =
          switch (argument) {
            case "sql" -> pre ? Kind.SQL_QUERY : Kind.SQL_UPDATE;
            case "scp" -> Kind.SCP;
            default -> null;
          };
      if (kind == null || stages.size() >= 200) {
        return "";
      }
      stages.add(newStage(kind, pre, stages));
      return prefix + (stages.size() - 1);
    }
    int i;
    try {
      i = Integer.parseInt(argument);
    } catch (NumberFormatException e) {
      return "";
    }
    if (i < 0 || i >= stages.size()) {
      return "";
    }
    switch (what) {
      case "remove" -> {
        stages.remove(i);
        return stages.isEmpty() ? "" : prefix + Math.min(i, stages.size() - 1);
      }
      case "up" -> {
        if (i > 0) {
          Collections.swap(stages, i, i - 1);
          return prefix + (i - 1);
        }
      }
      case "down" -> {
        if (i + 1 < stages.size()) {
          Collections.swap(stages, i, i + 1);
          return prefix + (i + 1);
        }
      }
      default -> {}
    }
    return prefix + i;
  }

  /** Adds or removes a declaration; returns the anchor of the one to show. */
  private static String arrangeParameters(
      List<WizardParameter> parameters, String what, String argument) {
    if (what.equals("add")) {
      if (parameters.size() >= 200) {
        return "";
      }
      WizardParameter p = new WizardParameter();
      p.set("type", "string");
      parameters.add(p);
      WizardForm.checkParameters(parameters);
      return "#parameter-" + (parameters.size() - 1);
    }
    int i;
    try {
      i = Integer.parseInt(argument);
    } catch (NumberFormatException e) {
      return "";
    }
    if (!what.equals("remove") || i < 0 || i >= parameters.size()) {
      return "";
    }
    parameters.remove(i);
    WizardForm.checkParameters(parameters);
    return parameters.isEmpty() ? "" : "#parameter-" + Math.min(i, parameters.size() - 1);
  }

  private static WizardStage newStage(Kind kind, boolean pre, List<WizardStage> stages) {
    WizardStage stage = new WizardStage(kind);
    if (kind == Kind.SCP) {
      long scp = stages.stream().filter(s -> s.kind() == Kind.SCP).count();
      stage.set("order", Long.toString(scp + 1));
      stage.set("direction", pre ? "transmit" : "receive");
      stage.set("protocol", JsdlDefaults.PROTOCOL.value());
      stage.set("authKind", "identity");
    } else {
      stage.set("dsKind", "named");
      stage.set("group", "1");
      if (kind == Kind.SQL_QUERY) {
        stage.set("creationFlag", JsdlDefaults.CREATION_FLAG.value());
      }
    }
    return stage;
  }

  /**
   * Encrypts a typed password with the server's key, bound to the signed-in user and to the stage's
   * destination as posted with it (its JDBC URL, or user@host:port), and wipes the typed
   * characters. A stage whose destination is changed later needs its password typed again; the
   * server's validation says so next to the field.
   */
  private String seal(HttpServletRequest request, WizardStage stage, char[] secret) {
    try {
      SecretBinding binding = bindingOf(SignedInUser.of(request).name(), stage);
      String pem = Pages.jobsOf(service, request).getServerInfo().passwordPublicKey;
      if (pem == null || pem.isBlank()) {
        throw new IllegalStateException(
            "This server publishes no password key: use a named data source or SSH identity.");
      }
      PublicKey key = EncryptedSecret.publicKeyFromPem(pem);
      try {
        return EncryptedSecret.encrypt(key, secret, binding);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "The password is too long to encrypt with the server's key.");
      }
    } finally {
      Arrays.fill(secret, '\0');
    }
  }

  /**
   * The user and destination a stage's password is for; IllegalArgumentException says what is
   * missing.
   */
  private static SecretBinding bindingOf(String user, WizardStage stage) {
    if (stage.kind() == Kind.SCP) {
      String host = stage.value("host");
      String remoteUser = stage.value("user");
      if (host.isBlank() || remoteUser.isBlank()) {
        throw new IllegalArgumentException(
            "Fill in the host and the remote user first: the password is encrypted"
                + " for that login only.");
      }
      String port = stage.value("port").strip();
      try {
        return SecretBinding.ssh(
            user,
            remoteUser,
            host,
            port.isEmpty() ? JsdlDefaults.SSH_PORT : Integer.parseInt(port));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Give a valid port first: the password is encrypted for that login only.");
      }
    }
    String url = stage.value("jdbcUrl");
    if (url.isBlank()) {
      throw new IllegalArgumentException(
          "Fill in the JDBC URL first: the password is encrypted for that database only.");
    }
    return SecretBinding.jdbc(user, url);
  }

  /** Composes the job, has the server validate it, and places the report next to the fields. */
  private ValidationResult validate(HttpServletRequest request, WizardJob job) {
    ValidationResult result = Pages.jobsOf(service, request).validateJob(document(job));
    WizardProblems.place(job, result.problems);
    job.reviewed(true);
    return result;
  }

  /**
   * The composed job as the API receives it: parsed from its text, so lines match what is shown,
   * with a template's values beside it (never written into it).
   */
  private static JobDocument document(WizardJob job) {
    String xml = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job));
    try {
      Element root =
          HardenedXml.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))
              .getDocumentElement();
      List<ParameterValue> values =
          job.valuesToSend().entrySet().stream()
              .map(v -> new ParameterValue(v.getKey(), v.getValue()))
              .toList();
      return new JobDocument(root, values);
    } catch (Exception e) {
      throw new IllegalStateException("the composed job cannot be read back", e);
    }
  }

  private void submit(HttpServletRequest request, HttpServletResponse response, WizardJob job)
      throws ServletException, IOException {
    try {
      String id = Pages.jobsOf(service, request).submitJob(document(job));
      request.getSession().setAttribute(SESSION_JOB, WizardJob.fresh());
      response.sendRedirect(request.getContextPath() + "/jobs/" + id);
    } catch (InvalidJobFault e) {
      WizardProblems.place(job, e.getFaultInfo().problems);
      notice(request.getSession(), "The job was not submitted: " + e.getMessage() + ".");
      redirect(request, response, WizardStep.REVIEW, "");
    } catch (LimitExceededFault e) {
      notice(request.getSession(), "The job was not submitted: " + e.getMessage());
      redirect(request, response, WizardStep.REVIEW, "");
    }
  }

  private void saveDraft(HttpServletRequest request, HttpServletResponse response, WizardJob job)
      throws IOException {
    String name = String.valueOf(request.getParameter("draftName")).strip();
    job.draftName(name);
    try {
      drafts.save(
          SignedInUser.of(request).name(),
          name,
          WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job)));
      job.fieldErrors().remove("draftName");
      notice(request.getSession(), "Saved as draft " + name + ".");
    } catch (IllegalArgumentException e) {
      job.fieldErrors().put("draftName", e.getMessage());
    }
    redirect(request, response, WizardStep.REVIEW, "");
  }

  /**
   * Reads an uploaded JSDL file. A body larger than the multipart limit allows is refused before it
   * is parsed, from its Content-Length; one that turns out too large while it is parsed (chunked)
   * is refused when the parser stops. Either way the refusal is answered through {@link
   * RefusedRequest}, which reads a bounded rest of the body first: answering 413 while the client
   * still sends made the server close a socket with unread bytes, which resets the connection and
   * throws the page away on the client's side ("header parser received no bytes").
   */
  private void upload(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (request.getContentLengthLong() > MAX_UPLOAD_REQUEST_BYTES) {
      refuseUpload(request, response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, TOO_LARGE);
      return;
    }
    Part file;
    try {
      file = request.getPart("file");
    } catch (IOException | ServletException | RuntimeException e) {
      // the parser stops at the limit and throws away what it spooled; nothing of the file is kept
      if (request.getContentLengthLong() > MAX_UPLOAD_BYTES || sizeExceeded(e)) {
        refuseUpload(request, response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, TOO_LARGE);
      } else {
        refuseUpload(
            request,
            response,
            HttpServletResponse.SC_BAD_REQUEST,
            "The upload was broken off or"
                + " is not a file upload the wizard can read (a multipart form with the field \"file\"); choose the"
                + " file and send it again.");
      }
      return;
    }
    try {
      readUpload(request, response, file);
    } finally {
      deleteParts(request);
    }
  }

  private void readUpload(HttpServletRequest request, HttpServletResponse response, Part file)
      throws ServletException, IOException {
    if (file == null || file.getSize() == 0) {
      uploadRefused(
          request,
          response,
          HttpServletResponse.SC_BAD_REQUEST,
          List.of("Choose a JSDL file to read."),
          List.of());
      return;
    }
    byte[] bytes;
    try (InputStream in = file.getInputStream()) {
      bytes = in.readNBytes((int) MAX_UPLOAD_BYTES + 1);
    }
    if (bytes.length > MAX_UPLOAD_BYTES) {
      uploadRefused(
          request,
          response,
          HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
          List.of(TOO_LARGE),
          List.of());
      return;
    }
    WizardJsdlImporter.Result result = WizardJsdlImporter.read(bytes, parser);
    if (!result.ok()) {
      uploadRefused(
          request,
          response,
          HttpServletResponse.SC_BAD_REQUEST,
          result.problems(),
          result.unsupported());
      return;
    }
    request.getSession().setAttribute(SESSION_JOB, result.job());
    String name = file.getSubmittedFileName() == null ? "the file" : file.getSubmittedFileName();
    notice(request.getSession(), "Read " + name + " into the wizard.");
    redirect(request, response, WizardStep.IDENTIFICATION, "");
  }

  /** Whether the multipart parser gave up because the file or the request exceeded its limit. */
  private static boolean sizeExceeded(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null
          && t.getMessage().toLowerCase(java.util.Locale.ROOT).contains("exceeded")) {
        return true;
      }
    }
    return false;
  }

  /** Removes the upload's spooled parts at once rather than at the end of the request. */
  private static void deleteParts(HttpServletRequest request) {
    try {
      for (Part part : request.getParts()) {
        part.delete();
      }
    } catch (IOException | ServletException | RuntimeException e) {
      // Jetty removes them at the end of the request anyway
    }
  }

  /** Refuses an upload whose body was not (all) read: drained as far as allowed, then the page. */
  private void refuseUpload(
      HttpServletRequest request, HttpServletResponse response, int status, String problem)
      throws IOException {
    RefusedRequest.answer(
        request,
        response,
        () -> {
          try {
            uploadRefused(request, response, status, List.of(problem), List.of());
          } catch (ServletException e) {
            throw new IOException(e);
          }
        });
  }

  private void uploadRefused(
      HttpServletRequest request,
      HttpServletResponse response,
      int status,
      List<String> problems,
      List<String> unsupported)
      throws ServletException, IOException {
    response.setStatus(status);
    request.setAttribute("uploadProblems", problems);
    request.setAttribute("uploadUnsupported", unsupported);
    render(request, response, jobOf(request.getSession()), WizardStep.IDENTIFICATION);
  }

  private static void download(WizardJob job, HttpServletResponse response) throws IOException {
    String xml = WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job));
    String name = job.value("name").replaceAll("[^A-Za-z0-9._-]", "_");
    response.setContentType("application/xml; charset=UTF-8");
    response.setHeader(
        "Content-Disposition",
        "attachment; filename=\"" + (name.isEmpty() ? "job" : name) + ".jsdl\"");
    response.getOutputStream().write(xml.getBytes(StandardCharsets.UTF_8));
  }

  private void render(
      HttpServletRequest request, HttpServletResponse response, WizardJob job, WizardStep step)
      throws ServletException, IOException {
    HttpSession session = request.getSession();
    Object notice = session.getAttribute(SESSION_NOTICE);
    session.removeAttribute(SESSION_NOTICE);
    if (step == WizardStep.REVIEW) {
      ValidationResult result = validate(request, job);
      request.setAttribute("valid", result.valid);
      request.setAttribute(
          "report", result.problems.stream().map(WizardViews.ProblemRow::of).toList());
      request.setAttribute("jsdl", WizardJsdlComposer.toXml(WizardJsdlComposer.compose(job)));
    }
    // the server's names this user may use, offered as suggestions for the name fields
    CredentialNames names = credentialNames.apply(SignedInUser.of(request).name());
    request.setAttribute("dataSources", names.dataSources());
    request.setAttribute("sshIdentities", names.sshIdentities());
    request.setAttribute("dataSourceHint", nameHint("a named data source", names.dataSources()));
    request.setAttribute("identityHint", nameHint("a named identity", names.sshIdentities()));
    request.setAttribute("notice", notice);
    request.setAttribute("uploadLimitMiB", MAX_UPLOAD_MIB);
    request.setAttribute("job", job);
    request.setAttribute("step", step);
    request.setAttribute("steps", WizardViews.steps(job, step));
    Pages.render(request, response, "wizard", "New job: " + step.getTitle());
  }

  private static String nameHint(String what, Collection<String> names) {
    return names.isEmpty()
        ? "with " + what + " (the server defines none for you)"
        : "with " + what + "; yours: " + String.join(", ", names);
  }

  private static void redirect(
      HttpServletRequest request, HttpServletResponse response, WizardStep step, String anchor)
      throws IOException {
    response.sendRedirect(request.getContextPath() + "/wizard?step=" + step.getSlug() + anchor);
  }
}
