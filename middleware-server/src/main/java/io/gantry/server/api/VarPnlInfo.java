package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * A node's hypothetical P&L on one business date (its desks' summed), as the risk view's dashboard
 * plots it against the VaR (docs/risk-view.md, "The dashboard"). Answered in process to the web
 * application; not an operation of the SOAP API yet.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "VarPnlInfo",
    propOrder = {"dataSource", "businessDate", "node", "pnl"})
public class VarPnlInfo {
  @XmlElement(required = true)
  public String dataSource;

  @XmlElement(required = true)
  public String businessDate;

  @XmlElement(required = true)
  public String node;

  public double pnl;
}
