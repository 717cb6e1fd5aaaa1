package io.gantry.server.api;

import jakarta.xml.ws.WebFault;

/** No such job for this caller: it does not exist, or it belongs to someone else. */
@WebFault(name = "JobNotFound", targetNamespace = JobManagement.NAMESPACE)
public class JobNotFoundFault extends Exception {
  private static final long serialVersionUID = 1L;
  private final FaultDetail faultInfo;

  public JobNotFoundFault(String message, FaultDetail faultInfo) {
    super(message);
    this.faultInfo = faultInfo;
  }

  public JobNotFoundFault(String message, FaultDetail faultInfo, Throwable cause) {
    super(message, cause);
    this.faultInfo = faultInfo;
  }

  public FaultDetail getFaultInfo() {
    return faultInfo;
  }
}
