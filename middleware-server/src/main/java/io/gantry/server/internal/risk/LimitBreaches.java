package io.gantry.server.internal.risk;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JsonObject;
import io.gantry.server.internal.jobstore.Outbox;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an {@code io.gantry.var.limit-breached} event (docs/operations.md, "Notifications";
 * docs/risk-view.md, "Limits") for each current figure of a VaR job that is above the limit in
 * force, once the job's stage-out has committed. The figures and limits are read with the job
 * owner's rights: only the results data sources the owner may use.
 *
 * <p>Each event's id is derived from the job and the figure ({@link Outbox#publishOnce}), so a
 * stage-out done again after a crash (the job was still STAGING_OUT) publishes nothing twice. A
 * results data source that cannot be read is logged as a WARN naming it; no event is invented and
 * the job's outcome does not change.
 */
public final class LimitBreaches {
  /** The event's type. */
  public static final String TYPE = "io.gantry.var.limit-breached";

  private static final Logger LOG = LoggerFactory.getLogger(LimitBreaches.class);

  private final RiskResults results;
  private final Outbox outbox;

  public LimitBreaches(RiskResults results, Outbox outbox) {
    this.results = results;
    this.outbox = outbox;
  }

  /**
   * Job {@code job} of {@code owner} has staged out: publishes its breaches. Jobs that wrote no
   * figures (the run id is the job id) publish nothing.
   *
   * @return how many events were written now
   */
  public int stagedOut(JobId job, String owner) {
    int written = 0;
    for (String dataSource : results.sourcesFor(owner)) {
      try {
        for (LimitUsage usage : results.runLimitUsage(owner, dataSource, job.value())) {
          if (usage.breached() && publish(job, owner, usage)) {
            written++;
          }
        }
      } catch (RiskResultsException e) {
        // the message names the data source and the database's reason
        LOG.warn("job {}: no VaR limit-breach events: {}", job, e.getMessage());
      }
    }
    return written;
  }

  private boolean publish(JobId job, String owner, LimitUsage usage) {
    VarFigure f = usage.figure();
    String confidence = f.confidence().stripTrailingZeros().toPlainString();
    JsonObject data =
        new JsonObject()
            .put("jobId", job.value())
            .put("dataSource", f.dataSource())
            .put("businessDate", f.businessDate().toString())
            .put("node", f.node())
            .putJson("confidence", confidence)
            .put("method", f.method())
            .putJson("var", number(f.var()))
            .putJson("limit", number(usage.limit().limit()))
            .putJson("usagePercent", percent(usage.usagePercent()))
            .put("baseCurrency", f.run().baseCurrency())
            .put("limitValidFrom", usage.limit().validFrom().toString());
    String key =
        String.join(
            "\n",
            job.value(),
            f.dataSource(),
            f.businessDate().toString(),
            f.node(),
            confidence,
            f.method());
    return outbox.publishOnce(TYPE, key, job.value(), owner, data);
  }

  /** A usage in percent to two decimals (a limit of 0 gives null). */
  private static String percent(double value) {
    return Double.isFinite(value)
        ? BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).toPlainString()
        : "null";
  }

  /** A finite double as a JSON number; a non-finite one (never a stored VaR) as null. */
  private static String number(double value) {
    return Double.isFinite(value) ? BigDecimal.valueOf(value).toPlainString() : "null";
  }
}
