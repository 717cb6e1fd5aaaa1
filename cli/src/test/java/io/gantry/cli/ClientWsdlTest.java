package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The CLI's client is generated from src/main/wsdl/JobManagement.wsdl, a copy of the WSDL the
 * server publishes (the server keeps the same file as its contract in
 * middleware-server/src/main/resources/wsdl). This fails when the served WSDL has moved on, so
 * the client is regenerated from the new contract rather than drifting from it.
 */
@ExtendWith(RealServer.Resolver.class)
class ClientWsdlTest {
  /** The endpoint address is where the WSDL was served from, not part of the contract. */
  private static String withoutAddress(String wsdl) {
    return wsdl.replaceAll("<soap:address location=\"[^\"]*\"/>", "<soap:address location=\"\"/>");
  }

  @Test
  void theClientsWsdlIsTheOneTheServerPublishes(RealServer server) throws Exception {
    HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    String served = http.send(HttpRequest.newBuilder(URI.create(server.jobManagementUrl() + "?wsdl")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    String copy = Files.readString(Path.of("src/main/wsdl/JobManagement.wsdl"));
    assertEquals(withoutAddress(served), withoutAddress(copy),
        "the served WSDL changed: copy it to cli/src/main/wsdl/JobManagement.wsdl and rebuild");
  }
}
