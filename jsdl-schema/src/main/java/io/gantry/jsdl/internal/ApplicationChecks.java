package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.HPCPA;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;
import static io.gantry.jsdl.JsdlNamespaces.POSIX;
import static io.gantry.jsdl.JsdlNamespaces.SPMD;

import io.gantry.jsdl.MpirunOptionPolicy;
import io.gantry.jsdl.ReservedEnvironment;
import java.util.List;
import org.w3c.dom.Element;

/**
 * Checks on the application that the schema cannot make: counts and limits in range, the
 * application's files inside the job directory or an allowed root, no environment variable the
 * server reserves ({@link ReservedEnvironment}) and mpirun options within {@link
 * MpirunOptionPolicy}. The executable itself may be any program path: it is run (inside the job's
 * sandbox, under the job's account), not written.
 */
final class ApplicationChecks {
  private static final String[] MPIRUN_FILES = {
    "WorkingDirectory", "HostFile", "StdoutFileName", "StderrFileName"
  };
  private static final String[] POSIX_FILES = {"Input", "Output", "Error", "WorkingDirectory"};

  private final Findings findings;
  private final JobDirectoryPaths paths;

  ApplicationChecks(Findings findings, JobDirectoryPaths paths) {
    this.findings = findings;
    this.paths = paths;
  }

  void check(Element root) {
    Element application = Dom.child(Dom.child(root, JSDL, "JobDescription"), JSDL, "Application");
    for (Element mpirun : Dom.children(application, GANTRY, "MpirunApplication")) {
      mpirun(mpirun);
    }
    for (Element posix : Dom.children(application, POSIX, "POSIXApplication")) {
      executable(posix, POSIX);
      files(posix, POSIX, POSIX_FILES);
      environment(posix, POSIX);
    }
    for (Element spmd : Dom.children(application, SPMD, "SPMDApplication")) {
      executable(spmd, POSIX);
      files(spmd, POSIX, POSIX_FILES);
      environment(spmd, POSIX);
    }
    for (Element hpc : Dom.children(application, HPCPA, "HPCProfileApplication")) {
      executable(hpc, HPCPA);
      files(hpc, HPCPA, POSIX_FILES);
      Element user = Dom.child(hpc, HPCPA, "UserName");
      if (user != null) {
        findings.warning(
            user, "UserName is not used: a job always runs for the Gantry user who submits it");
      }
    }
  }

  /**
   * The standard makes Executable optional so that a profile may fill it in; Gantry's one such
   * default is an ApplicationName beside it (the server's named application). Otherwise a missing
   * or empty one is refused here rather than failing in the planner.
   */
  private void executable(Element application, String namespace) {
    Element executable = Dom.child(application, namespace, "Executable");
    Element name = Dom.child((Element) application.getParentNode(), JSDL, "ApplicationName");
    if (executable == null && name != null) {
      // UNICORE's way of naming an installed application: the name is the program
      findings.warning(
          application,
          application.getLocalName()
              + " has no Executable: ApplicationName "
              + Dom.text(name).strip()
              + " names the program, resolved by the server when the job is validated or"
              + " submitted (gantry applications lists what it offers); the "
              + application.getLocalName()
              + "'s other settings are not used");
    } else if (executable == null) {
      findings.error(
          application,
          "Executable is missing; "
              + application.getLocalName()
              + " needs the program to run (or use an ApplicationName the server offers)");
    } else if (Dom.text(executable).isBlank()) {
      findings.error(executable, "Executable is empty; give the program to run");
    }
  }

  private void mpirun(Element mpirun) {
    findings.atLeast(Dom.child(mpirun, GANTRY, "NumberOfProcesses"), 1);
    findings.atLeast(Dom.child(mpirun, GANTRY, "WallTimeLimit"), 1);
    findings.atLeast(Dom.child(mpirun, GANTRY, "Verbosity"), 0);
    files(mpirun, GANTRY, MPIRUN_FILES);
    environment(mpirun, GANTRY);
    // One token per element, exactly as the dispatcher will pass them to mpirun (not stripped).
    List<Element> options = Dom.children(mpirun, GANTRY, "MpirunOption");
    MpirunOptionPolicy.firstViolation(options.stream().map(Element::getTextContent).toList())
        .ifPresent(v -> findings.error(options.get(v.index()), v.message()));
  }

  private void environment(Element application, String namespace) {
    for (Element variable : Dom.children(application, namespace, "Environment")) {
      ReservedEnvironment.problem(variable.getAttribute("name"))
          .ifPresent(problem -> findings.error(variable, problem));
    }
  }

  private void files(Element application, String namespace, String[] names) {
    for (String name : names) {
      for (Element file : Dom.children(application, namespace, name)) {
        paths
            .applicationPathProblem(Dom.text(file))
            .ifPresent(problem -> findings.error(file, problem));
      }
    }
  }
}
