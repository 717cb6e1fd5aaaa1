package io.gantry.dispatcher;

import java.time.Duration;

/**
 * The defaults and checks of what a farm's or session's dispatcher lets onto its port before a
 * connection has authenticated (docs/task-farms.md, "Limits on the dispatcher's port"). Any job can
 * reach the port, so a connection that has not said a correct HELLO is kept small, few and brief.
 */
public final class LauncherAdmission {
  /**
   * How long a connection may take to say HELLO: gantry-launcher says it as soon as it connects, so
   * a few seconds leave room for a loaded node.
   */
  public static final Duration DEFAULT_HELLO_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The most connections waiting for their HELLO at once. A whole allocation's launchers connecting
   * together do not need more: the rest wait in the listen backlog for the milliseconds a HELLO
   * takes.
   */
  public static final int DEFAULT_MAX_UNAUTHENTICATED = 16;

  private LauncherAdmission() {}

  /** Refuses a HELLO timeout that is not positive or a cap below 1. */
  public static void check(Duration helloTimeout, int maxUnauthenticated) {
    if (helloTimeout == null || helloTimeout.isNegative() || helloTimeout.isZero()) {
      throw new IllegalArgumentException("the HELLO timeout must be positive, was " + helloTimeout);
    }
    if (maxUnauthenticated < 1) {
      throw new IllegalArgumentException(
          "the most unauthenticated connections must be at least 1, was " + maxUnauthenticated);
    }
  }
}
