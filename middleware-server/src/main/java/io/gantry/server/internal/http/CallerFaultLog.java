package io.gantry.server.internal.http;

import org.apache.cxf.interceptor.Fault;
import org.apache.cxf.logging.FaultListener;
import org.apache.cxf.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the log readable when clients make mistakes. CXF logs every fault at WARN with a full stack
 * trace; for a wrong password, a missing login, an invalid job or an offset below zero that is
 * noise, and anyone able to reach the port could fill the disk with stack traces. Those faults get
 * one line at INFO with the text the client received (written for clients, so it carries no
 * secret); every other fault keeps CXF's own logging, stack trace included, beside the incident id
 * {@link ClientFaultCodes} logs.
 */
final class CallerFaultLog implements FaultListener {
  private static final Logger log = LoggerFactory.getLogger(CallerFaultLog.class);

  @Override
  public boolean faultOccurred(Exception exception, String description, Message message) {
    if (!(exception instanceof Fault fault) || !ClientFaultCodes.isCallersMistake(fault)) {
      return true;
    }
    Object operation =
        message.getExchange() == null ? null : message.getExchange().getBindingOperationInfo();
    log.info("refused {}: {}", operation == null ? description : operation, fault.getMessage());
    return false;
  }
}
