package io.gantry.server.internal.http;

/**
 * One SOAP service to publish under {@code /services/}: its interface, its implementation and the
 * path below {@code /services} (e.g. {@code /JobManagement}).
 */
public record SoapEndpoint(Class<?> serviceInterface, Object implementation, String path) {
  public SoapEndpoint {
    if (!path.startsWith("/") || path.length() < 2) {
      throw new IllegalArgumentException("SOAP endpoint path must start with '/': " + path);
    }
    if (!serviceInterface.isInstance(implementation)) {
      throw new IllegalArgumentException(
          implementation.getClass().getName()
              + " does not implement "
              + serviceInterface.getName());
    }
  }
}
