package io.gantry.cli.internal.soap;

import jakarta.xml.ws.WebServiceException;

/**
 * A SOAP fault that is none of the operation's declared faults (a declared one is thrown as its
 * generated exception class): the server could not answer, or refused the request's form. Carries
 * the fault code's local part ({@code Client} or {@code Server}) and the fault string.
 */
public final class SoapFaultException extends WebServiceException {
  private static final long serialVersionUID = 1L;
  private final String faultCode;

  SoapFaultException(String faultCode, String faultString) {
    super(faultString);
    this.faultCode = faultCode;
  }

  /** {@code Client} or {@code Server} (the local part of the SOAP 1.1 fault code). */
  public String faultCode() {
    return faultCode;
  }
}
