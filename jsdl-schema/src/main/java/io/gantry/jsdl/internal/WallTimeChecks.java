package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;
import static io.gantry.jsdl.JsdlNamespaces.POSIX;
import static io.gantry.jsdl.JsdlNamespaces.SPMD;

import org.w3c.dom.Element;

/**
 * A WallTimeLimit above the longest this server allows is an error at the element, not a silent
 * cap: a job that needs two days and gets one finds out at validation, not when it is killed after
 * a day of computing.
 */
final class WallTimeChecks {
  private final Findings findings;
  private final long maxSeconds;

  WallTimeChecks(Findings findings, long maxSeconds) {
    this.findings = findings;
    this.maxSeconds = maxSeconds;
  }

  void check(Element root) {
    if (maxSeconds == Long.MAX_VALUE) {
      return;
    }
    Element application = Dom.child(Dom.child(root, JSDL, "JobDescription"), JSDL, "Application");
    for (Element mpirun : Dom.children(application, GANTRY, "MpirunApplication")) {
      limit(Dom.child(mpirun, GANTRY, "WallTimeLimit"));
    }
    for (Element posix : Dom.children(application, POSIX, "POSIXApplication")) {
      limit(Dom.child(posix, POSIX, "WallTimeLimit"));
    }
    for (Element spmd : Dom.children(application, SPMD, "SPMDApplication")) {
      limit(Dom.child(spmd, POSIX, "WallTimeLimit"));
    }
  }

  private void limit(Element wallTime) {
    Long seconds = Dom.number(wallTime);
    if (seconds != null && seconds > maxSeconds) {
      findings.error(
          wallTime,
          "is "
              + seconds
              + " s, longer than this server allows: at most "
              + maxSeconds
              + " s (setting limits.max-wall-time)");
    }
  }
}
