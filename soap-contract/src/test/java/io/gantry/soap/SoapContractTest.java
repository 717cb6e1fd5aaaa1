package io.gantry.soap;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SoapContractTest {
  @Test
  void theWsdlOnTheClassPathBindsTheApiToSoap11AndSoap12() throws Exception {
    String wsdl;
    try (InputStream in = SoapContract.wsdl().openStream()) {
      wsdl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(
        wsdl.contains("targetNamespace=\"" + SoapContract.API_NAMESPACE + "\""),
        "the API namespace");
    assertTrue(wsdl.contains("http://schemas.xmlsoap.org/wsdl/soap/"), "a SOAP 1.1 binding");
    assertTrue(wsdl.contains("http://schemas.xmlsoap.org/wsdl/soap12/"), "a SOAP 1.2 binding");
  }
}
