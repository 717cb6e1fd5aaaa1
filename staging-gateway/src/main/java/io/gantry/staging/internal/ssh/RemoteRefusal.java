package io.gantry.staging.internal.ssh;

import java.io.IOException;

/** A file of a job directory on the cluster that is there but is not read: a link, not regular. */
public final class RemoteRefusal extends IOException {
  private static final long serialVersionUID = 1L;
  private final String reason;

  RemoteRefusal(String what, String name, String reason) {
    super(what + " '" + name + "' " + reason + "; not read");
    this.reason = reason;
  }

  public String reason() {
    return reason;
  }
}
