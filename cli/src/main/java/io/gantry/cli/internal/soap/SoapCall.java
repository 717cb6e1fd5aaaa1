package io.gantry.cli.internal.soap;

import jakarta.xml.bind.JAXBException;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import javax.xml.stream.XMLStreamException;

/** One invocation of one operation: request out, answer in, and what the answer means. */
final class SoapCall {
  private final SoapOperation operation;
  private final HttpEndpoint endpoint;
  private final SoapMessages messages;

  SoapCall(SoapOperation operation, HttpEndpoint endpoint) {
    this.operation = operation;
    this.endpoint = endpoint;
    this.messages = new SoapMessages(operation);
  }

  Object invoke(Object[] args) throws Exception {
    byte[] request;
    try {
      request = messages.request(operation.request(args));
    } catch (JAXBException | XMLStreamException | ReflectiveOperationException e) {
      throw new WebServiceException("cannot write the " + operation.name() + " request: " + e, e);
    }
    HttpEndpoint.Answer answer;
    try {
      answer = endpoint.post(request, operation.soapAction());
    } catch (IOException e) {
      throw new WebServiceException(e.getMessage(), e);
    }
    int status = answer.status();
    if (status == 200 || status == 500 || status == 400) {
      // 200 a result; 500 (and 400 from some stacks) a fault in the body
      try {
        return operation.result(messages.response(answer.body()));
      } catch (JAXBException | XMLStreamException e) {
        if (status == 200) {
          throw new WebServiceException(
              "the answer to " + operation.name() + " is not the expected SOAP message: " + e, e);
        }
      }
    }
    String reason = SoapMessages.faultString(answer.body());
    throw new HttpStatusException(
        status, reason == null ? answer.reasonPhrase() : reason, answer.challenge());
  }
}
