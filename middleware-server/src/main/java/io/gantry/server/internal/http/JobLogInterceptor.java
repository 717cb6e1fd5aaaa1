package io.gantry.server.internal.http;

import io.gantry.server.internal.logging.JobLog;
import io.gantry.server.internal.service.Caller;
import java.security.Principal;
import org.apache.cxf.message.Message;
import org.apache.cxf.message.MessageContentsList;
import org.apache.cxf.phase.AbstractPhaseInterceptor;
import org.apache.cxf.phase.Phase;
import org.apache.cxf.security.SecurityContext;
import org.apache.cxf.service.model.BindingOperationInfo;
import org.apache.cxf.service.model.MessagePartInfo;

/**
 * Just before a SOAP operation runs: its lines in the log carry the caller and, for an operation on
 * one job (a {@code jobId} argument), the job ({@link JobLog}). {@link SoapServlet} forgets both
 * when the request ends; a submission adds the new job's id itself.
 */
final class JobLogInterceptor extends AbstractPhaseInterceptor<Message> {
  JobLogInterceptor() {
    super(Phase.PRE_INVOKE);
  }

  @Override
  public void handleMessage(Message message) {
    SecurityContext security = message.get(SecurityContext.class);
    Principal principal = security == null ? null : security.getUserPrincipal();
    // without authentication every caller is the local user (Caller)
    String user = principal == null ? Caller.LOCAL_USER : principal.getName();
    JobLog.set(jobId(message), user); // the request's scope: SoapServlet clears it
  }

  /** The operation's {@code jobId} argument, if it has one of a single job. */
  private static String jobId(Message message) {
    BindingOperationInfo operation = message.getExchange().getBindingOperationInfo();
    MessageContentsList arguments = MessageContentsList.getContentsList(message);
    if (operation == null || arguments == null) {
      return null;
    }
    if (operation.isUnwrappedCapable()) {
      operation = operation.getUnwrappedOperation();
    }
    for (MessagePartInfo part : operation.getOperationInfo().getInput().getMessageParts()) {
      int index = part.getIndex();
      if (part.getName().getLocalPart().equals("jobId")
          && index < arguments.size()
          && arguments.get(index) instanceof String id) {
        return id;
      }
    }
    return null;
  }
}
