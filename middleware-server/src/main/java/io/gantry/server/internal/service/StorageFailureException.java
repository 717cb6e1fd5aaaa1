package io.gantry.server.internal.service;

/**
 * The server's storage is failing, so it refuses the call. A server-side fault whose text Gantry
 * wrote for clients (it names the failing part by role, never by path), so the SOAP front passes it
 * on as it is instead of hiding it behind an incident id.
 */
public final class StorageFailureException extends jakarta.xml.ws.WebServiceException {
  private static final long serialVersionUID = 1L;

  public StorageFailureException(String message) {
    super(message);
  }
}
