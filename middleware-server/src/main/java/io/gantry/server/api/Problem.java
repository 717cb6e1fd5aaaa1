package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** One problem in a job description, located by line, column and element path. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "Problem",
    propOrder = {"severity", "line", "column", "path", "message"})
public class Problem {
  /** ERROR makes the document invalid; WARNING does not. */
  @XmlElement(required = true)
  public String severity;

  public int line;
  public int column;
  public String path;

  @XmlElement(required = true)
  public String message;
}
