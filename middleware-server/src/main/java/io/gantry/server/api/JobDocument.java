package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlType;
import org.w3c.dom.Element;

/**
 * Carries one JSDL {@code JobDefinition} element as XML. The schema leaves its content open ({@code
 * xs:any}) so that any SOAP stack can put a JSDL document it built as XML into the message; the
 * server validates it against the JSDL schemas itself and answers with a full report, which is more
 * useful than a stack-level schema error.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "JobDocument")
public class JobDocument {

  @XmlAnyElement private Element jobDefinition;

  public JobDocument() {}

  public JobDocument(Element jobDefinition) {
    this.jobDefinition = jobDefinition;
  }

  /** The {@code jsdl:JobDefinition} element, or null when the message carried none. */
  public Element getJobDefinition() {
    return jobDefinition;
  }
}
