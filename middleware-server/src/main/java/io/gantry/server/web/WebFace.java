package io.gantry.server.web;

import org.eclipse.jetty.ee11.servlet.ServletContextHandler;

/**
 * A face of gantry-server served by its own Jetty, beside the SOAP API and in the same servlet
 * context: the web application is one. Implementations are found with {@link
 * java.util.ServiceLoader} on the server's class path, so the server does not depend on them; a
 * server started without one serves the SOAP API alone.
 */
public interface WebFace {
  /**
   * Adds the face's servlets, filters and resources to {@code context} before the server starts.
   * The paths {@code /services/*} belong to the SOAP API.
   */
  void install(ServletContextHandler context, WebFaceContext server) throws Exception;
}
