package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;

/**
 * A node's current VaR of one business date against the VaR limit in force on that date
 * (docs/risk-view.md, "Limits"): usage in percent, and whether the VaR breaches the limit.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "VarLimitInfo",
    propOrder = {
      "dataSource",
      "businessDate",
      "node",
      "confidence",
      "method",
      "var",
      "varLimit",
      "usagePercent",
      "breached",
      "limitValidFrom",
      "runId"
    })
public class VarLimitInfo {
  @XmlElement(required = true)
  public String dataSource;

  /** ISO 8601. */
  @XmlElement(required = true)
  public String businessDate;

  @XmlElement(required = true)
  public String node;

  @XmlElement(required = true)
  public BigDecimal confidence;

  @XmlElement(required = true)
  public String method;

  public double var;

  public double varLimit;

  /** 100 var / varLimit. */
  public double usagePercent;

  /** The VaR is above the limit (equal is not a breach). */
  public boolean breached;

  /** The first business date the limit holds for, ISO 8601. */
  @XmlElement(required = true)
  public String limitValidFrom;

  /** The current run that gave the VaR. */
  @XmlElement(required = true)
  public String runId;
}
