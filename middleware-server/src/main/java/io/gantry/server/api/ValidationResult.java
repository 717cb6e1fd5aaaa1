package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** The outcome of validating a job description: every problem at once, not the first. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "ValidationResult",
    propOrder = {"valid", "problems"})
public class ValidationResult {
  public boolean valid;

  @XmlElement(name = "problem")
  public List<Problem> problems = new ArrayList<>();
}
