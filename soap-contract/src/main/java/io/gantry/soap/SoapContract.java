package io.gantry.soap;

import java.net.URL;

/**
 * Where the job-management API's published contract lives. The WSDL is one file with the portType
 * bound twice, to SOAP 1.1 and SOAP 1.2, and a port for each: the server's {@code WsdlContractTest}
 * holds what the server serves to it, and the command line's client is generated from it, so there
 * is one contract and no copy of it to drift.
 */
public final class SoapContract {
  /** The API's namespace; its trailing number is the contract's version. */
  public static final String API_NAMESPACE = "urn:gantry:jobmanagement:1";

  /** The WSDL's class-path resource name. */
  public static final String WSDL_RESOURCE = "io/gantry/soap/JobManagement.wsdl";

  private SoapContract() {}

  /** The WSDL, read from this module's jar (or classes directory). */
  public static URL wsdl() {
    URL url = SoapContract.class.getClassLoader().getResource(WSDL_RESOURCE);
    if (url == null) {
      throw new IllegalStateException("the class path lacks " + WSDL_RESOURCE);
    }
    return url;
  }
}
