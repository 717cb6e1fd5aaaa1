package io.gantry.web;

import io.gantry.jsdl.JsdlParser;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The user's drafts: {@code /drafts} lists them, {@code /drafts/download?name=} hands one out as a
 * file, POST {@code /drafts/open} reads one into the wizard, POST {@code /drafts/delete} removes
 * one (the page asks first). Drafts are saved from the wizard's review.
 */
final class DraftsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final transient DraftStore drafts;
  private final transient JsdlParser parser = new JsdlParser();

  DraftsServlet(DraftStore drafts) {
    this.drafts = drafts;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    String user = SignedInUser.of(request).name();
    if (path.equals("/download")) {
      Optional<String> draft = load(request, response, user);
      if (draft.isPresent()) {
        response.setContentType("application/xml; charset=UTF-8");
        response.setHeader(
            "Content-Disposition",
            "attachment; filename=\"" + request.getParameter("name") + ".jsdl\"");
        response.getOutputStream().write(draft.get().getBytes(StandardCharsets.UTF_8));
      }
      return;
    }
    if (!path.isEmpty() && !path.equals("/")) {
      Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no such drafts page");
      return;
    }
    Object notice = request.getSession().getAttribute("gantry.drafts.notice");
    request.getSession().removeAttribute("gantry.drafts.notice");
    request.setAttribute("notice", notice);
    request.setAttribute("drafts", drafts.list(user));
    request.setAttribute("maxDrafts", DraftStore.MAX_DRAFTS);
    Pages.render(request, response, "drafts", "Drafts");
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    String user = SignedInUser.of(request).name();
    String name = request.getParameter("name");
    switch (path) {
      case "/open" -> {
        Optional<String> draft = load(request, response, user);
        if (draft.isEmpty()) {
          return;
        }
        WizardJsdlImporter.Result result =
            WizardJsdlImporter.read(draft.get().getBytes(StandardCharsets.UTF_8), parser);
        if (!result.ok()) {
          Pages.error(
              request,
              response,
              HttpServletResponse.SC_BAD_REQUEST,
              "draft "
                  + name
                  + " cannot be read into the wizard: "
                  + String.join("; ", result.problems())
                  + String.join(", ", result.unsupported()));
          return;
        }
        result.job().draftName(name);
        request.getSession().setAttribute(WizardServlet.SESSION_JOB, result.job());
        WizardServlet.notice(request.getSession(), "Opened draft " + name + ".");
        response.sendRedirect(request.getContextPath() + "/wizard?step=identification");
      }
      case "/delete" -> {
        if (!DraftStore.validName(name) || !drafts.delete(user, name)) {
          Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no draft " + name);
          return;
        }
        request.getSession().setAttribute("gantry.drafts.notice", "Deleted draft " + name + ".");
        response.sendRedirect(request.getContextPath() + "/drafts");
      }
      default ->
          Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no such drafts page");
    }
  }

  private Optional<String> load(
      HttpServletRequest request, HttpServletResponse response, String user)
      throws ServletException, IOException {
    String name = request.getParameter("name");
    Optional<String> draft =
        DraftStore.validName(name) ? drafts.load(user, name) : Optional.empty();
    if (draft.isEmpty()) {
      Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "no draft " + name);
    }
    return draft;
  }
}
