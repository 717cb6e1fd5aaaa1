package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.List;
import org.w3c.dom.Element;

/**
 * Carries one JSDL {@code JobDefinition} element as XML. The schema leaves its content open ({@code
 * xs:any}) so that any SOAP stack can put a JSDL document it built as XML into the message; the
 * server validates it against the JSDL schemas itself and answers with a full report, which is more
 * useful than a stack-level schema error.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobDocument",
    propOrder = {"jobDefinition", "parameters"})
public class JobDocument {

  @XmlAnyElement private Element jobDefinition;

  /**
   * Values for the parameters a job template declares ({@code gx:Parameters}): given with
   * submitJob, validateJob and addSchedule, answered with getJobDefinition. Appended after the
   * document and optional, so clients built before templates send and read the same messages.
   */
  @XmlElement(name = "parameter")
  private List<ParameterValue> parameters;

  public JobDocument() {}

  public JobDocument(Element jobDefinition) {
    this.jobDefinition = jobDefinition;
  }

  public JobDocument(Element jobDefinition, List<ParameterValue> parameters) {
    this.jobDefinition = jobDefinition;
    this.parameters = parameters == null || parameters.isEmpty() ? null : List.copyOf(parameters);
  }

  /** The parameter values given with the document; empty when none. */
  public List<ParameterValue> getParameters() {
    return parameters == null ? List.of() : parameters;
  }

  /** The {@code jsdl:JobDefinition} element, or null when the message carried none. */
  public Element getJobDefinition() {
    return jobDefinition;
  }
}
