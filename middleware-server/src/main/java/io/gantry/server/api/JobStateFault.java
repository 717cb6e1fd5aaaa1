package io.gantry.server.api;

import jakarta.xml.ws.WebFault;

/** The job is in a state that does not allow the operation (e.g. cancel of a running job). */
@WebFault(name = "JobStateConflict", targetNamespace = JobManagement.NAMESPACE)
public class JobStateFault extends Exception {
  private static final long serialVersionUID = 1L;
  private final FaultDetail faultInfo;

  public JobStateFault(String message, FaultDetail faultInfo) {
    super(message);
    this.faultInfo = faultInfo;
  }

  public JobStateFault(String message, FaultDetail faultInfo, Throwable cause) {
    super(message, cause);
    this.faultInfo = faultInfo;
  }

  public FaultDetail getFaultInfo() {
    return faultInfo;
  }
}
