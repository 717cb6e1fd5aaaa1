package io.gantry.server.api;

import jakarta.xml.ws.WebFault;

/** The job description is invalid; the fault carries the full validation report. */
@WebFault(name = "InvalidJob", targetNamespace = JobManagement.NAMESPACE)
public class InvalidJobFault extends Exception {
  private static final long serialVersionUID = 1L;
  private final ValidationResult faultInfo;

  public InvalidJobFault(String message, ValidationResult faultInfo) {
    super(message);
    this.faultInfo = faultInfo;
  }

  public InvalidJobFault(String message, ValidationResult faultInfo, Throwable cause) {
    super(message, cause);
    this.faultInfo = faultInfo;
  }

  public ValidationResult getFaultInfo() {
    return faultInfo;
  }
}
