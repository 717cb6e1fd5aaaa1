package io.gantry.server.http;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.LimitExceededFault;
import java.util.Set;
import org.apache.cxf.interceptor.Fault;
import org.apache.cxf.message.Message;
import org.apache.cxf.phase.AbstractPhaseInterceptor;
import org.apache.cxf.phase.Phase;

/**
 * Marks the faults that are the caller's to fix (an invalid job, an unknown job, a state that
 * does not allow the operation, a refused request, a limit reached) as {@code soap:Client}
 * (SOAP 1.2: {@code Sender}). CXF reports every declared fault as {@code soap:Server}, which
 * tells a BPEL engine or a retrying client that the same request might succeed later.
 */
final class ClientFaultCodes extends AbstractPhaseInterceptor<Message> {
  private static final Set<Class<? extends Exception>> CALLERS_MISTAKES = Set.of(InvalidJobFault.class,
      JobNotFoundFault.class, JobStateFault.class, AccessDeniedFault.class, LimitExceededFault.class);

  ClientFaultCodes() {
    super(Phase.PRE_LOGICAL);
  }

  @Override
  public void handleMessage(Message message) {
    if (message.getContent(Exception.class) instanceof Fault fault && fault.getCause() != null
        && CALLERS_MISTAKES.contains(fault.getCause().getClass())) {
      fault.setFaultCode(Fault.FAULT_CODE_CLIENT);
    }
  }
}
