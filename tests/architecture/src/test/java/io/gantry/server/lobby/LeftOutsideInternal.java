package io.gantry.server.lobby;

/**
 * A server class in a package that is neither the server's public face nor {@code internal}: the
 * public-face rule must fail on it (ServerPublicFaceTest).
 */
public final class LeftOutsideInternal {
  private LeftOutsideInternal() {}
}
