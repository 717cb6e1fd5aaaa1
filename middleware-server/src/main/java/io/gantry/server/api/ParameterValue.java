package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * The value of one job template parameter ({@code gx:Parameter}): given with a submission, a
 * schedule or a resubmission, and answered with a job's status and definition. The value is text;
 * the server checks it against the parameter's type.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "ParameterValue",
    propOrder = {"name", "value"})
public class ParameterValue {
  @XmlElement(required = true)
  public String name;

  @XmlElement(required = true)
  public String value;

  public ParameterValue() {}

  public ParameterValue(String name, String value) {
    this.name = name;
    this.value = value;
  }
}
