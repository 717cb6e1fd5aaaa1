package io.gantry.server.internal.http;

import java.security.Principal;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import org.apache.cxf.interceptor.Fault;
import org.apache.cxf.message.Message;
import org.apache.cxf.phase.AbstractPhaseInterceptor;
import org.apache.cxf.phase.Phase;
import org.apache.cxf.security.SecurityContext;

/**
 * At most {@code limits.concurrent-requests-per-user} SOAP calls of one user at a time, so one
 * user's script in a loop cannot take every server thread from the others. A permit is taken once
 * the caller is known (after HTTP Basic or WS-Security authentication), before the SOAP body is
 * unmarshalled, and given back when the answer or the fault goes out; a call over the limit is
 * refused at once, not queued. Taking it also lifts the body bound of a caller a UsernameToken
 * authenticated ({@link BoundedRequestBody}).
 */
final class ConcurrentRequestLimit {
  private static final String PERMIT = ConcurrentRequestLimit.class.getName() + ".permit";
  private static final String ACQUIRE_ID = ConcurrentRequestLimit.class.getName() + ".acquire";
  private final int perUser;
  private final ConcurrentMap<String, Semaphore> permits = new ConcurrentHashMap<>();

  ConcurrentRequestLimit(int perUser) {
    if (perUser < 1) {
      throw new IllegalArgumentException("limits.concurrent-requests-per-user must be at least 1");
    }
    this.perUser = perUser;
  }

  /** Takes the caller's permit before the operation runs. */
  AbstractPhaseInterceptor<Message> acquire() {
    AbstractPhaseInterceptor<Message> acquire =
        new AbstractPhaseInterceptor<>(ACQUIRE_ID, Phase.PRE_PROTOCOL) {
          @Override
          public void handleMessage(Message message) {
            String user = userOf(message);
            Semaphore semaphore = permits.computeIfAbsent(user, k -> new Semaphore(perUser));
            if (!semaphore.tryAcquire()) {
              Fault refused =
                  new Fault(
                      new IllegalStateException(
                          "user "
                              + user
                              + " already has "
                              + perUser
                              + " requests in progress, the most this server serves at once"
                              + " (limits.concurrent-requests-per-user); wait for one to finish"));
              refused.setFaultCode(Fault.FAULT_CODE_CLIENT);
              throw refused;
            }
            message.getExchange().put(PERMIT, semaphore);
            BoundedRequestBody.authenticated(message);
          }
        };
    acquire.addAfter(AuthenticationRequiredInterceptor.class.getName());
    acquire.addAfter(UsernameTokenInterceptor.class.getName());
    return acquire;
  }

  /** Gives the permit back when the answer (or the fault) goes out; exactly once per call. */
  AbstractPhaseInterceptor<Message> release() {
    return new AbstractPhaseInterceptor<>(Phase.PREPARE_SEND) {
      @Override
      public void handleMessage(Message message) {
        Object permit = message.getExchange().remove(PERMIT);
        if (permit instanceof Semaphore semaphore) {
          semaphore.release();
        }
      }
    };
  }

  private static String userOf(Message message) {
    SecurityContext security = message.get(SecurityContext.class);
    Principal principal = security == null ? null : security.getUserPrincipal();
    return principal == null ? "local" : principal.getName();
  }
}
