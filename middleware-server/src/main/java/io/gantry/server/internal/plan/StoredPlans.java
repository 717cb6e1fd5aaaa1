package io.gantry.server.internal.plan;

import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.SqlLoad;
import io.gantry.staging.UriTransfer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link JsdlJobPlan} as the job store keeps it: where the job's files are and what its staging
 * steps are, without any credential. A transfer's {@code credential} (an identity name or an
 * owner-bound encrypted password) and an inline data source's password stay in the job description,
 * where they were submitted; the stored step names only the data source (its configured name, or
 * its JDBC URL redacted) or the remote side (user@host:port and path).
 */
public final class StoredPlans {
  private StoredPlans() {}

  public static StoredPlan of(JsdlJobPlan plan) {
    Path dir = plan.jobDirectory();
    List<StoredPlan.Step> steps = new ArrayList<>();
    String in = DataMovement.STAGE_IN;
    String out = DataMovement.STAGE_OUT;
    plan.stageIn().transfers().forEach(t -> steps.add(transfer(in, t)));
    plan.stageIn().uriTransfers().forEach(t -> steps.add(uri(in, t)));
    plan.stageIn().extracts().forEach(x -> steps.add(extract(x)));
    plan.stageOut().loads().forEach(l -> steps.add(load(l)));
    plan.stageOut().transfers().forEach(t -> steps.add(transfer(out, t)));
    plan.stageOut().uriTransfers().forEach(t -> steps.add(uri(out, t)));
    if (!plan.runsProgram()) {
      return new StoredPlan(dir, null, null, steps);
    }
    return new StoredPlan(
        dir, relative(dir, plan.launch().stdout()), relative(dir, plan.launch().stderr()), steps);
  }

  /** The file's name relative to the job directory, as the reader opens files inside it. */
  private static String relative(Path dir, Path file) {
    return dir.relativize(file.normalize()).toString().replace(java.io.File.separatorChar, '/');
  }

  private static StoredPlan.Step extract(SqlExtract x) {
    return new StoredPlan.Step(
        DataMovement.STAGE_IN,
        "sql-extract",
        x.executionOrderGroup(),
        x.dataSource().describe(),
        x.statement(),
        x.outputFileName());
  }

  private static StoredPlan.Step load(SqlLoad l) {
    return new StoredPlan.Step(
        DataMovement.STAGE_OUT,
        "sql-load",
        l.executionOrderGroup(),
        l.dataSource().describe(),
        l.statement(),
        l.inputFileName());
  }

  private static StoredPlan.Step transfer(String phase, RemoteTransfer t) {
    boolean toJob = t.direction() == RemoteTransfer.Direction.TRANSMIT;
    String remotePath = toJob ? t.sourceFileName() : t.targetFileName();
    String file = toJob ? t.targetFileName() : t.sourceFileName();
    String remote =
        t.protocol().name().toLowerCase(java.util.Locale.ROOT)
            + "://"
            + t.user()
            + "@"
            + t.host()
            + ":"
            + t.port();
    return new StoredPlan.Step(
        phase, toJob ? "transmit" : "receive", t.arrangingOrder(), remote, remotePath, file);
  }

  private static StoredPlan.Step uri(String phase, UriTransfer t) {
    return new StoredPlan.Step(
        phase,
        t.direction() == UriTransfer.Direction.IN ? "uri-in" : "uri-out",
        t.order(),
        t.describe(),
        null,
        t.fileName());
  }
}
