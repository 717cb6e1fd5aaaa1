package io.gantry.server.internal.http;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.UserAccountFault;
import io.gantry.server.internal.service.InvalidArgumentException;
import jakarta.xml.bind.UnmarshalException;
import java.util.Set;
import java.util.UUID;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;
import org.apache.cxf.binding.soap.SoapFault;
import org.apache.cxf.interceptor.Fault;
import org.apache.cxf.message.Message;
import org.apache.cxf.phase.AbstractPhaseInterceptor;
import org.apache.cxf.phase.Phase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a client learns from a fault, on its way out:
 *
 * <ul>
 *   <li>the faults that are the caller's to fix (an invalid job, an unknown job, a state that does
 *       not allow the operation, a refused request, a limit reached, an argument out of range) are
 *       {@code soap:Client} (SOAP 1.2: {@code Sender}). CXF reports every declared fault as {@code
 *       soap:Server}, which tells a BPEL engine or a retrying client that the same request might
 *       succeed later;
 *   <li>anything else the service or CXF threw with a Java exception under it (a bug, a broken
 *       disk) is logged here with an incident id, and the client gets only a generic {@code
 *       soap:Server} fault with that id: exception texts name classes, files and values that are
 *       not the caller's business, and they help nobody fix their request.
 * </ul>
 *
 * Faults Gantry raises itself as {@link SoapFault} (authentication) and CXF's own client faults (a
 * body that does not match the WSDL) keep their text.
 */
final class ClientFaultCodes extends AbstractPhaseInterceptor<Message> {
  private static final Logger log = LoggerFactory.getLogger(ClientFaultCodes.class);
  private static final Set<Class<? extends Exception>> CALLERS_MISTAKES =
      Set.of(
          InvalidJobFault.class,
          JobNotFoundFault.class,
          JobStateFault.class,
          AccessDeniedFault.class,
          LimitExceededFault.class,
          UserAccountFault.class,
          InvalidArgumentException.class);

  ClientFaultCodes() {
    super(Phase.PRE_LOGICAL);
  }

  @Override
  public void handleMessage(Message message) {
    if (!(message.getContent(Exception.class) instanceof Fault fault)) {
      return;
    }
    Throwable cause = fault.getCause();
    if (cause != null && CALLERS_MISTAKES.contains(cause.getClass())) {
      fault.setFaultCode(Fault.FAULT_CODE_CLIENT);
      if (cause instanceof InvalidArgumentException) {
        fault.setMessage(cause.getMessage());
      }
      return;
    }
    if (cause instanceof io.gantry.server.internal.service.StorageFailureException) {
      // the server's own trouble, told in words written for clients (no path, no class)
      fault.setFaultCode(Fault.FAULT_CODE_SERVER);
      fault.setMessage(cause.getMessage());
      return;
    }
    if (endedBeforeItsBody(cause)) {
      // CXF reads on past the envelope's end when it has no Body (found by SoapRequestFuzzTest)
      fault.setFaultCode(Fault.FAULT_CODE_CLIENT);
      fault.setMessage("the request's SOAP envelope has no Body");
      fault.setDetail(null);
      return;
    }
    XMLStreamException notXml = notWellFormed(cause);
    if (notXml != null) {
      // CXF's reader refused the bytes before any SOAP was read (a broken XML declaration, found
      // by SoapRequestFuzzTest): the caller's to fix, told where, not an incident of the server's
      fault.setFaultCode(Fault.FAULT_CODE_CLIENT);
      fault.setMessage(notWellFormedMessage(notXml));
      fault.setDetail(null);
      return;
    }
    if (cause instanceof UnmarshalException) {
      // a body that does not match the WSDL: JAXB's text names the element and what was expected
      fault.setFaultCode(Fault.FAULT_CODE_CLIENT);
      if (!isSafe(fault.getMessage())) {
        fault.setMessage(
            "the request does not match the service's WSDL (an element, its namespace or a value)");
      }
      return;
    }
    if (cause == null
        || (fault instanceof SoapFault && cause instanceof Fault)
        || (isClientCode(fault) && isSafe(fault.getMessage()))) {
      return;
    }
    String incident = UUID.randomUUID().toString();
    log.error("incident {}: an operation failed; the client got a generic fault", incident, cause);
    fault.setFaultCode(Fault.FAULT_CODE_SERVER);
    fault.setMessage(
        "internal server error (incident "
            + incident
            + "); the server's log has the details,"
            + " under this incident id");
    // the cause is never serialised (CXF's fault stack traces stay off), only this text and no
    // detail
    fault.setDetail(null);
  }

  /**
   * Whether the fault is the caller's to fix, whatever code CXF has given it so far: a declared
   * fault or an argument check, a body that does not match the WSDL, or a {@code Client}/{@code
   * Sender} fault with a text written for clients (the login refusals).
   */
  static boolean isCallersMistake(Fault fault) {
    Throwable cause = fault.getCause();
    if ((cause != null && CALLERS_MISTAKES.contains(cause.getClass()))
        || cause instanceof UnmarshalException
        || notWellFormed(cause) != null
        || endedBeforeItsBody(cause)) {
      return true;
    }
    return isClientCode(fault) && isSafe(fault.getMessage());
  }

  /**
   * The XML reader's refusal under {@code cause}, if the request was not XML at all; or null. Only
   * a reader's exception carries a location (where in the request it stopped): one without (a
   * writer's, of the response) is the server's and stays an incident.
   */
  private static XMLStreamException notWellFormed(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof XMLStreamException e && e.getLocation() != null) {
        return e;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /**
   * Whether the XML reader was asked for more after the document's end: CXF's body interceptor does
   * that for an envelope without a Body (Woodstox then throws NoSuchElementException).
   */
  private static boolean endedBeforeItsBody(Throwable cause) {
    if (!(cause instanceof java.util.NoSuchElementException) || cause.getStackTrace().length == 0) {
      return false;
    }
    return cause.getStackTrace()[0].getClassName().startsWith("com.ctc.wstx.");
  }

  /** Where the reader stopped, and its words when they name no Java class. */
  private static String notWellFormedMessage(XMLStreamException e) {
    StringBuilder text = new StringBuilder("the request is not well-formed XML");
    Location at = e.getLocation();
    if (at != null && at.getLineNumber() > 0) {
      text.append(" (line ").append(at.getLineNumber());
      text.append(", column ").append(at.getColumnNumber()).append(')');
    }
    String said = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
    if (!said.isBlank() && isSafe(said)) {
      text.append(": ").append(said.strip());
    }
    return text.toString();
  }

  /** No Java class, package or stack frame in the text. */
  private static boolean isSafe(String text) {
    return text != null
        && !text.contains("Exception")
        && !text.contains("java.")
        && !text.contains("\tat ");
  }

  private static boolean isClientCode(Fault fault) {
    String local = fault.getFaultCode() == null ? "" : fault.getFaultCode().getLocalPart();
    // CXF's own client code is {http://cxf.apache.org/faultcode}client, in lower case
    return local.equalsIgnoreCase("Client") || local.equals("Sender");
  }
}
