package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Why one node's VaR changed between two business dates, at one confidence level and method, from
 * one results data source (docs/risk-view.md, "Explain"): the change split into components that add
 * up to it exactly (a residual line included), and the positions and risk factors that moved it
 * most.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "VarExplainInfo",
    propOrder = {
      "dataSource",
      "node",
      "confidence",
      "method",
      "fromDate",
      "toDate",
      "fromRunId",
      "toRunId",
      "fromVar",
      "toVar",
      "change",
      "component",
      "position",
      "factor"
    })
public class VarExplainInfo {
  @XmlElement(required = true)
  public String dataSource;

  @XmlElement(required = true)
  public String node;

  @XmlElement(required = true)
  public BigDecimal confidence;

  @XmlElement(required = true)
  public String method;

  /** The first and the second business date, ISO 8601. */
  @XmlElement(required = true)
  public String fromDate;

  @XmlElement(required = true)
  public String toDate;

  /** The current runs of the two dates. */
  @XmlElement(required = true)
  public String fromRunId;

  @XmlElement(required = true)
  public String toRunId;

  public double fromVar;

  public double toVar;

  /** toVar - fromVar: the sum of the components. */
  public double change;

  /** The components in order: new, matured, quantity changes, market and time, residual. */
  public List<Component> component = new ArrayList<>();

  /** The positions whose contribution changed most, the largest absolute change first. */
  public List<Position> position = new ArrayList<>();

  /** The same summed by primary risk factor; absent where the data source has no book. */
  public List<Factor> factor = new ArrayList<>();

  /** One part of the change. */
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(
      name = "VarExplainComponent",
      propOrder = {"name", "amount", "positions"})
  public static class Component {
    /** e.g. "new positions", "residual/interaction" (docs/risk-view.md). */
    @XmlElement(required = true)
    public String name;

    public double amount;

    public int positions;
  }

  /** One position's part in the change. */
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(
      name = "VarExplainPosition",
      propOrder = {
        "positionId",
        "status",
        "factor",
        "fromContribution",
        "toContribution",
        "quantityEffect",
        "marketEffect",
        "change"
      })
  public static class Position {
    @XmlElement(required = true)
    public String positionId;

    /** new, matured or held. */
    @XmlElement(required = true)
    public String status;

    /** Its primary risk factor; absent where the data source has no book. */
    public String factor;

    /** Absent where the position was not held on that date. */
    public Double fromContribution;

    public Double toContribution;

    public double quantityEffect;

    public double marketEffect;

    public double change;
  }

  /** The change of the contributions of the positions with one primary risk factor. */
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(
      name = "VarExplainFactor",
      propOrder = {"factor", "change", "positions"})
  public static class Factor {
    @XmlElement(required = true)
    public String factor;

    public double change;

    public int positions;
  }
}
