package io.gantry.server.api;

import jakarta.xml.ws.WebFault;

/**
 * The caller is authenticated but may not do this (e.g. list all users' jobs without being an
 * administrator).
 */
@WebFault(name = "AccessDenied", targetNamespace = JobManagement.NAMESPACE)
public class AccessDeniedFault extends Exception {
  private static final long serialVersionUID = 1L;
  private final FaultDetail faultInfo;

  public AccessDeniedFault(String message, FaultDetail faultInfo) {
    super(message);
    this.faultInfo = faultInfo;
  }

  public AccessDeniedFault(String message, FaultDetail faultInfo, Throwable cause) {
    super(message, cause);
    this.faultInfo = faultInfo;
  }

  public FaultDetail getFaultInfo() {
    return faultInfo;
  }
}
