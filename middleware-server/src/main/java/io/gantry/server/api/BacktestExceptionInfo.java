package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;

/**
 * One exception of a node's VaR backtest (docs/risk-view.md, "Backtesting"): the business day whose
 * VaR the next business day's loss exceeded, as one run of the backtest job staged it out. The
 * exceptions of an earlier run name the rerun that superseded it.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "BacktestExceptionInfo",
    propOrder = {
      "dataSource",
      "runId",
      "businessDate",
      "node",
      "confidence",
      "pnlType",
      "varDate",
      "pnlDate",
      "var",
      "pnl",
      "supersededBy"
    })
public class BacktestExceptionInfo {
  @XmlElement(required = true)
  public String dataSource;

  /** The backtest job's id. */
  @XmlElement(required = true)
  public String runId;

  /** The backtest's business date (the last P&amp;L date of its window), ISO 8601. */
  @XmlElement(required = true)
  public String businessDate;

  @XmlElement(required = true)
  public String node;

  @XmlElement(required = true)
  public BigDecimal confidence;

  /** The P&amp;L compared with the VaR, e.g. hypothetical. */
  @XmlElement(required = true)
  public String pnlType;

  /** The business day of the VaR, ISO 8601. */
  @XmlElement(required = true)
  public String varDate;

  /** The next business day, whose P&amp;L exceeded that VaR, ISO 8601. */
  @XmlElement(required = true)
  public String pnlDate;

  /** The VaR, a positive amount in the run's base currency. */
  public double var;

  /** The P&amp;L of the P&amp;L date, a loss larger than the VaR (negative). */
  public double pnl;

  public String supersededBy;
}
