package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;

/**
 * One position's Euler contribution to a node's VaR and expected shortfall in one run (mcvar's
 * contributions.csv, node-programs/README.md), the last step of the dashboard's drill-down.
 * Answered in process to the web application; not an operation of the SOAP API yet.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "VarPositionInfo",
    propOrder = {
      "dataSource",
      "runId",
      "node",
      "positionId",
      "confidence",
      "varContribution",
      "esContribution",
      "marginalVar"
    })
public class VarPositionInfo {
  @XmlElement(required = true)
  public String dataSource;

  @XmlElement(required = true)
  public String runId;

  @XmlElement(required = true)
  public String node;

  @XmlElement(required = true)
  public String positionId;

  @XmlElement(required = true)
  public BigDecimal confidence;

  public double varContribution;

  public double esContribution;

  public Double marginalVar;
}
