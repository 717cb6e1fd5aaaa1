package io.gantry.server.api;

import jakarta.xml.ws.WebFault;

/** A limit was reached (queued jobs per user, job description size, concurrent requests). */
@WebFault(name = "LimitExceeded", targetNamespace = JobManagement.NAMESPACE)
public class LimitExceededFault extends Exception {
  private static final long serialVersionUID = 1L;
  private final FaultDetail faultInfo;

  public LimitExceededFault(String message, FaultDetail faultInfo) {
    super(message);
    this.faultInfo = faultInfo;
  }

  public LimitExceededFault(String message, FaultDetail faultInfo, Throwable cause) {
    super(message, cause);
    this.faultInfo = faultInfo;
  }

  public FaultDetail getFaultInfo() {
    return faultInfo;
  }
}
