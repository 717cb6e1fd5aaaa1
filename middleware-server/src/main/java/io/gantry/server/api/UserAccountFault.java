package io.gantry.server.api;

import jakarta.xml.ws.WebFault;

/**
 * A user administration request the account rules refuse; the detail's code says which rule:
 * USER_NOT_FOUND, USER_EXISTS, LAST_ADMINISTRATOR or INVALID_ACCOUNT (a bad name, a short password,
 * an OS account that cannot run jobs).
 */
@WebFault(name = "UserAccountRefused", targetNamespace = JobManagement.NAMESPACE)
public class UserAccountFault extends Exception {
  private static final long serialVersionUID = 1L;
  private final FaultDetail faultInfo;

  public UserAccountFault(String message, FaultDetail faultInfo) {
    super(message);
    this.faultInfo = faultInfo;
  }

  public UserAccountFault(String message, FaultDetail faultInfo, Throwable cause) {
    super(message, cause);
    this.faultInfo = faultInfo;
  }

  public FaultDetail getFaultInfo() {
    return faultInfo;
  }
}
