package io.gantry.web;

import io.gantry.server.web.WebFace;
import io.gantry.server.web.WebFaceContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.SessionTrackingMode;
import java.nio.file.Files;
import java.util.EnumSet;
import org.eclipse.jetty.ee11.servlet.DefaultServlet;
import org.eclipse.jetty.ee11.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.ee11.servlet.SessionHandler;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.util.resource.ResourceFactory;

/**
 * The web application, added to gantry-server's servlet context when this module is on its class
 * path (found through {@link java.util.ServiceLoader} as a {@link WebFace}).
 *
 * <p>Sessions: a cookie only (never an id in a URL), {@code HttpOnly}, {@code SameSite=Strict},
 * {@code Secure} whenever the server speaks HTTPS, ended after the configured idle time ({@code
 * web.session-idle-timeout}).
 */
public final class GantryWebApplication implements WebFace {
  static final String SESSION_COOKIE = "gantry-session";

  @Override
  public void install(ServletContextHandler context, WebFaceContext server) throws Exception {
    Files.createDirectories(server.dataDirectory());
    JspSupport.addTo(context, server.dataDirectory().resolve("jsp-work"));
    context.setBaseResource(
        ResourceFactory.of(context).newClassLoaderResource("io/gantry/web/root/"));
    context.setProtectedTargets(new String[] {"/WEB-INF", "/META-INF"});
    context.setMaxFormContentSize(PageGuard.MAX_FORM_BYTES);
    configureSessions(context.getSessionHandler(), server);

    context.addFilter(
        new FilterHolder(new PageGuard(server.authenticator(), server.secure())),
        "/*",
        EnumSet.of(DispatcherType.REQUEST));
    ServletHolder files = new ServletHolder("default", DefaultServlet.class);
    files.setInitParameter("dirAllowed", "false");
    files.setInitParameter("cacheControl", "max-age=3600");
    context.addServlet(files, "/");
    context.addServlet(new ServletHolder("error", new ErrorPageServlet()), "/error");
    ErrorPageErrorHandler errors = new ErrorPageErrorHandler();
    errors.addErrorPage(400, 599, "/error");
    context.setErrorHandler(errors);
    context.addServlet(new ServletHolder("home", new HomeServlet()), "");
    context.addServlet(
        new ServletHolder("login", new LoginServlet(server.authenticator())), "/login");
    context.addServlet(new ServletHolder("logout", new LogoutServlet()), "/logout");
    context.addServlet(new ServletHolder("jobs", new JobListServlet(server.jobs())), "/jobs");
    context.addServlet(new ServletHolder("job", new JobPageServlet(server.jobs())), "/jobs/*");
    context.addServlet(new ServletHolder("risk", new RiskServlet(server.jobs())), "/risk/*");
    addWizard(context, server);
  }

  /** The job wizard (with its JSDL upload, multipart and size-limited) and the user's drafts. */
  private static void addWizard(ServletContextHandler context, WebFaceContext server)
      throws java.io.IOException {
    DraftStore drafts = new DraftStore(server.dataDirectory().resolve("drafts"));
    ServletHolder wizard =
        new ServletHolder(
            "wizard", new WizardServlet(server.jobs(), drafts, server.credentialNames()));
    java.nio.file.Path uploads = Files.createDirectories(server.dataDirectory().resolve("uploads"));
    wizard
        .getRegistration()
        .setMultipartConfig(
            new jakarta.servlet.MultipartConfigElement(
                uploads.toString(),
                WizardServlet.MAX_UPLOAD_BYTES,
                WizardServlet.MAX_UPLOAD_REQUEST_BYTES,
                64 * 1024));
    context.addServlet(wizard, "/wizard/*");
    context.addServlet(new ServletHolder("drafts", new DraftsServlet(drafts)), "/drafts/*");
    ServletHolder schedules =
        new ServletHolder("schedules", new SchedulesServlet(server.jobs(), drafts));
    schedules
        .getRegistration()
        .setMultipartConfig(
            new jakarta.servlet.MultipartConfigElement(
                uploads.toString(),
                SchedulesServlet.MAX_UPLOAD_BYTES,
                WizardServlet.MAX_UPLOAD_REQUEST_BYTES,
                64 * 1024));
    context.addServlet(schedules, "/schedules/*");
  }

  private static void configureSessions(SessionHandler sessions, WebFaceContext server) {
    sessions.setMaxInactiveInterval(
        (int) Math.min(Integer.MAX_VALUE, server.sessionIdleTimeout().toSeconds()));
    sessions.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.COOKIE));
    sessions.setSessionCookie(SESSION_COOKIE);
    sessions.setHttpOnly(true);
    sessions.setSecureRequestOnly(server.secure());
    sessions.setSameSite(HttpCookie.SameSite.STRICT);
  }
}
