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
 * One node's VaR backtest at one confidence level on one business date, as one run of the backtest
 * job staged it out (docs/risk-view.md, "Backtesting"): exceptions, the Basel traffic-light zone,
 * Kupiec's and Christoffersen's p-values. An earlier run names the rerun that superseded it.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "BacktestInfo",
    propOrder = {
      "dataSource",
      "runId",
      "businessDate",
      "node",
      "confidence",
      "pnlType",
      "windowDays",
      "observations",
      "exceptions",
      "expectedExceptions",
      "zone",
      "kupiecPValue",
      "independencePValue",
      "conditionalCoveragePValue",
      "firstDate",
      "lastDate",
      "stagedOutAt",
      "supersededBy"
    })
public class BacktestInfo {
  @XmlElement(required = true)
  public String dataSource;

  /** The backtest job's id. */
  @XmlElement(required = true)
  public String runId;

  /** ISO 8601 (2026-11-20). */
  @XmlElement(required = true)
  public String businessDate;

  @XmlElement(required = true)
  public String node;

  @XmlElement(required = true)
  public BigDecimal confidence;

  /** The P&amp;L compared with the VaR, e.g. hypothetical. */
  @XmlElement(required = true)
  public String pnlType;

  public int windowDays;

  public int observations;

  /** Absent where the window held no observation (then zone and p-values are absent too). */
  public Integer exceptions;

  public Double expectedExceptions;

  /** The Basel traffic-light zone: green, yellow or red. */
  public String zone;

  public Double kupiecPValue;

  public Double independencePValue;

  public Double conditionalCoveragePValue;

  /** The first and last business dates of the window, ISO 8601. */
  public String firstDate;

  public String lastDate;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant stagedOutAt;

  public String supersededBy;
}
