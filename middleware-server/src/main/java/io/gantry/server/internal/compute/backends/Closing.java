package io.gantry.server.internal.compute.backends;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closes a launcher typed only as {@link io.gantry.dispatcher.Launcher}. */
final class Closing {
  private static final Logger log = LoggerFactory.getLogger(Closing.class);

  private Closing() {}

  /** Closes {@code resource} if it is closeable; a failure is logged, the server stops anyway. */
  static void quietly(Object resource) {
    if (resource instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.warn("closing {}: {}", resource.getClass().getSimpleName(), e.toString());
      }
    }
  }
}
