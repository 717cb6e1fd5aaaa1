package io.gantry.web;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.tomcat.InstanceManager;
import org.apache.tomcat.SimpleInstanceManager;
import org.eclipse.jetty.ee11.apache.jsp.JettyJasperInitializer;
import org.eclipse.jetty.ee11.jsp.JettyJspServlet;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;

/**
 * Jasper (the JSP engine) in a plain servlet context rather than a deployed web archive: what a
 * WAR's container would set up, done by hand.
 *
 * <ol>
 *   <li>Jasper's initializer runs when the context starts, as a container would run it.
 *   <li>The context gets a class loader of its own: Jasper refuses the system class loader.
 *   <li>Compiled pages go to a scratch directory under the server's data directory.
 *   <li>The JSP servlet is named {@code jsp}, as the specification requires, and handles {@code
 *       *.jsp}; pages live under {@code /WEB-INF/jsp}, reached only by a servlet's forward.
 * </ol>
 */
final class JspSupport {
  private JspSupport() {}

  static void addTo(ServletContextHandler context, Path scratch) throws IOException {
    Files.createDirectories(scratch);
    context.setClassLoader(new URLClassLoader(new URL[0], JspSupport.class.getClassLoader()));
    context.addServletContainerInitializer(new JettyJasperInitializer());
    context.setAttribute(InstanceManager.class.getName(), new SimpleInstanceManager());
    context.setAttribute("jakarta.servlet.context.tempdir", scratch.toFile());
    ServletHolder jsp = new ServletHolder("jsp", JettyJspServlet.class);
    jsp.setInitOrder(0);
    jsp.setInitParameter("scratchdir", scratch.toString());
    jsp.setInitParameter("fork", "false");
    jsp.setInitParameter("xpoweredBy", "false");
    jsp.setInitParameter("compilerTargetVM", "17");
    jsp.setInitParameter("compilerSourceVM", "17");
    // pages are part of the release: no need to look for changed sources on every request
    jsp.setInitParameter("development", "false");
    jsp.setInitParameter("trimSpaces", "true");
    context.addServlet(jsp, "*.jsp");
  }
}
