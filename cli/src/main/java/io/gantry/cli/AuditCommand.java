package io.gantry.cli;

import io.gantry.cli.soap.AuditEntry;
import io.gantry.cli.soap.JobAudit;
import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.StagedFile;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code gantry audit ID}: who did what to a job, and every piece of data it moved. */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description =
        "Show a job's audit trail, oldest first: every change of state with who caused it "
            + "(submitted, cancelled, killed by whom), and every data movement with its source, target, "
            + "rows, bytes and checksum.",
    footerHeading = "%nExample:%n",
    footer = {"  gantry audit 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", ExitCodes.HELP})
final class AuditCommand extends OneJobCommand<JobAudit> {
  @Override
  JobAudit ask(JobManagement server, String jobId) throws Exception {
    return server.getJobAudit(jobId);
  }

  @Override
  int print(PrintWriter out, JobAudit audit) {
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.audit(audit));
      return ExitCodes.OK;
    }
    if (!gantry.quiet) {
      out.println("job " + audit.getJobId() + "  owner " + audit.getOwner());
    }
    TextTable table = new TextTable("TIME", "EVENT", "DETAIL");
    for (AuditEntry e : audit.getEntry()) {
      table.row(Times.text(e.getAt()), event(e), detail(e));
    }
    table.print(out);
    out.flush();
    return ExitCodes.OK;
  }

  private static String event(AuditEntry e) {
    if (e.getMovement() != null) {
      return "data";
    }
    return (e.getFromState() == null ? "" : e.getFromState().value() + " -> ")
        + e.getToState().value();
  }

  private static String detail(AuditEntry e) {
    StagedFile f = e.getMovement();
    if (f == null) {
      return e.getText();
    }
    return e.getText()
        + "; "
        + f.getSource()
        + " -> "
        + f.getTarget()
        + (f.getChecksum() == null ? "" : "; " + f.getChecksum());
  }
}
