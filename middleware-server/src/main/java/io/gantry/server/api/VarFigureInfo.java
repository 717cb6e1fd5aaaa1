package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * One node's VaR and expected shortfall at one confidence level on one business date, as one run
 * produced it, read from a results data source (docs/risk-view.md, "Results history"). Reruns do
 * not hide earlier runs: an earlier figure names the run that superseded it.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "VarFigureInfo",
    propOrder = {
      "dataSource",
      "businessDate",
      "node",
      "confidence",
      "method",
      "var",
      "expectedShortfall",
      "varStderr",
      "esStderr",
      "runId",
      "horizonDays",
      "scenarios",
      "stagedOutAt",
      "supersededBy",
      "varLimit",
      "limitUsagePercent"
    })
public class VarFigureInfo {
  /** The named data source the figure was read from. */
  @XmlElement(required = true)
  public String dataSource;

  /** The business date, ISO 8601 (2026-11-20). */
  @XmlElement(required = true)
  public String businessDate;

  /** The hierarchy node's path, e.g. BANK/GANTRY-EU. */
  @XmlElement(required = true)
  public String node;

  /** The confidence level, e.g. 0.99. */
  @XmlElement(required = true)
  public BigDecimal confidence;

  /** The run's method (mcvar's --method, e.g. mc-normal, historical). */
  @XmlElement(required = true)
  public String method;

  /** Value at risk, a positive loss in the run's base currency. */
  public double var;

  public double expectedShortfall;

  /** The Monte Carlo standard error of the VaR; absent where the run gave none. */
  public Double varStderr;

  public Double esStderr;

  /** The run id, which is the Gantry job id of the run. */
  @XmlElement(required = true)
  public String runId;

  public int horizonDays;

  public long scenarios;

  /** When the run's stage-out committed; absent where the results were loaded some other way. */
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant stagedOutAt;

  /** The later run that replaced this figure; absent when the figure is the current one. */
  public String supersededBy;

  /**
   * The node's VaR limit at this confidence level in force on the business date (docs/risk-view.md,
   * "Limits"); absent where it has none.
   */
  public Double varLimit;

  /** 100 var / varLimit; absent where the node has no limit. */
  public Double limitUsagePercent;
}
