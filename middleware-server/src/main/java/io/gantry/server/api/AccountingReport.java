package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What jobs that ended in [from, to) used, one line per user or per project (getAccounting;
 * docs/operations.md, "Accounting and quotas").
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "AccountingReport",
    propOrder = {"from", "to", "by", "lines"})
public class AccountingReport {
  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant from;

  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant to;

  /** "user" or "project". */
  @XmlElement(required = true)
  public String by;

  @XmlElement(name = "line")
  public List<AccountingLine> lines = new ArrayList<>();
}
