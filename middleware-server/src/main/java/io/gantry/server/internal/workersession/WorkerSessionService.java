package io.gantry.server.internal.workersession;

import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.dispatcher.workersession.Completion;
import io.gantry.dispatcher.workersession.SessionFullException;
import io.gantry.dispatcher.workersession.SessionMessage;
import io.gantry.dispatcher.workersession.SessionOptions;
import io.gantry.dispatcher.workersession.SessionStatus;
import io.gantry.dispatcher.workersession.WorkerProgram;
import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.WorkerCompletion;
import io.gantry.server.api.WorkerCompletions;
import io.gantry.server.api.WorkerMessage;
import io.gantry.server.api.WorkerSessionInfo;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import jakarta.xml.ws.WebServiceException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker-session operations of the SOAP API (docs/task-farms.md, "Sessions"; the logic is
 * {@link WorkerSessions}'): the caller's rights and the API's shapes. Only a session's owner feeds
 * it and takes its completions; an administrator may also see and close any. A session the caller
 * may not use is answered exactly like one that does not exist.
 */
public final class WorkerSessionService {
  public static final int MAX_WINDOW = 4096;
  public static final int MAX_BATCH = 100_000;
  public static final int MAX_WAIT_SECONDS = 20;

  /**
   * The server's sessions; null on a server that runs none, and then every operation is refused.
   */
  private final WorkerSessions sessions;

  public WorkerSessionService(WorkerSessions sessions) {
    this.sessions = sessions;
  }

  /**
   * Closes every session of a user who was just removed: a session lives in memory under its
   * owner's name, and a later user of the same name must not feed it or take its completions.
   */
  public void closeAllOf(String removedUser) {
    WorkerSessions s = sessions;
    if (s != null) {
      s.list(removedUser, false).forEach(s::close);
    }
  }

  private WorkerSessions sessions() {
    WorkerSessions s = sessions;
    if (s == null) {
      throw new WebServiceException("this server runs no worker sessions");
    }
    return s;
  }

  public WorkerSessionInfo open(
      Caller caller,
      String application,
      String executable,
      List<String> arguments,
      int workers,
      Integer window)
      throws LimitExceededFault {
    if (workers < 1) {
      throw new InvalidArgumentException("workers", "at least 1, was " + workers);
    }
    int w = window == null ? SessionOptions.DEFAULT_WINDOW : window;
    if (w < 1 || w > MAX_WINDOW) {
      throw new InvalidArgumentException("window", "1 to " + MAX_WINDOW + ", was " + w);
    }
    WorkerProgram program;
    try {
      program =
          sessions()
              .program(
                  caller.name(),
                  application,
                  executable,
                  arguments == null ? List.of() : arguments);
    } catch (JobFailure e) {
      throw new InvalidArgumentException(
          application != null && !application.isEmpty() ? "application" : "executable",
          e.getMessage());
    }
    String label = application != null && !application.isEmpty() ? application : executable;
    try {
      return info(sessions().open(caller.name(), program, label, workers, w));
    } catch (WorkerSessionLimitException e) {
      throw limit(e.getMessage());
    } catch (JobFailure e) {
      throw new WebServiceException(e.getMessage());
    }
  }

  public List<Long> submit(Caller caller, String sessionId, List<WorkerMessage> messages)
      throws LimitExceededFault {
    WorkerSession s = owned(caller, sessionId);
    List<WorkerMessage> given = messages == null ? List.of() : messages;
    if (given.size() > MAX_BATCH) {
      throw limit(given.size() + " messages in one batch; at most " + MAX_BATCH);
    }
    List<SessionMessage> batch = new ArrayList<>(given.size());
    for (int i = 0; i < given.size(); i++) {
      WorkerMessage m = given.get(i);
      if (m == null || m.input == null) {
        throw new InvalidArgumentException("message", "message " + (i + 1) + " has no input");
      }
      batch.add(new SessionMessage(m.input, priority(m.priority, i)));
    }
    try {
      return s.dispatcher().submit(batch);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(
          "message", e.getMessage() + " (worker-session.max-message-bytes)");
    } catch (SessionFullException e) {
      throw limit(e.getMessage() + " (worker-session.max-held-messages, max-held-bytes)");
    }
  }

  public WorkerCompletions take(Caller caller, String sessionId, int max, int waitSeconds) {
    if (max < 1 || max > MAX_BATCH) {
      throw new InvalidArgumentException("maxCompletions", "1 to " + MAX_BATCH + ", was " + max);
    }
    if (waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS) {
      throw new InvalidArgumentException(
          "waitSeconds", "0 to " + MAX_WAIT_SECONDS + ", was " + waitSeconds);
    }
    WorkerSession s = owned(caller, sessionId);
    List<Completion> taken;
    try {
      taken = s.dispatcher().take(max, Duration.ofSeconds(waitSeconds));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WebServiceException("interrupted while waiting for completions", e);
    }
    WorkerCompletions out = new WorkerCompletions();
    for (Completion c : taken) {
      WorkerCompletion w = new WorkerCompletion();
      w.messageId = c.id();
      w.state = c.state().wireName();
      w.output = c.output();
      w.truncated = c.truncated();
      w.attempts = c.attempts();
      w.worker = c.worker();
      out.completions.add(w);
    }
    out.session = info(s);
    return out;
  }

  public WorkerSessionInfo get(Caller caller, String sessionId) {
    return info(visible(caller, sessionId));
  }

  public List<WorkerSessionInfo> list(Caller caller, boolean allUsers) throws AccessDeniedFault {
    if (allUsers && !caller.admin()) {
      String message = "only administrators may list every user's worker sessions";
      throw new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
    }
    return sessions().list(caller.name(), allUsers).stream()
        .map(WorkerSessionService::info)
        .toList();
  }

  public WorkerSessionInfo close(Caller caller, String sessionId) {
    WorkerSession s = visible(caller, sessionId);
    sessions().close(s);
    return info(s);
  }

  private WorkerSession owned(Caller caller, String sessionId) {
    return sessions()
        .owned(sessionId, caller.name())
        .orElseThrow(() -> notFound(caller, sessionId));
  }

  private WorkerSession visible(Caller caller, String sessionId) {
    return sessions()
        .visible(sessionId, caller.name(), caller.admin())
        .orElseThrow(() -> notFound(caller, sessionId));
  }

  private static InvalidArgumentException notFound(Caller caller, String sessionId) {
    if (sessionId == null || sessionId.isEmpty()) {
      return new InvalidArgumentException("sessionId", "missing");
    }
    String shown = sessionId.length() > 40 ? sessionId.substring(0, 40) + "..." : sessionId;
    return new InvalidArgumentException(
        "sessionId",
        "no worker session " + shown.replaceAll("\\p{Cntrl}", "?") + " for user " + caller.name());
  }

  private static TaskPriority priority(String given, int index) {
    if (given == null || given.isEmpty() || given.equalsIgnoreCase("normal")) {
      return TaskPriority.NORMAL;
    }
    if (given.equalsIgnoreCase("high")) {
      return TaskPriority.HIGH;
    }
    throw new InvalidArgumentException(
        "message",
        "message " + (index + 1) + ": priority must be high or normal, was '" + given + "'");
  }

  private static LimitExceededFault limit(String message) {
    return new LimitExceededFault(message, new FaultDetail("LIMIT_EXCEEDED", message, null, null));
  }

  public static WorkerSessionInfo info(WorkerSession s) {
    SessionStatus st = s.dispatcher().status();
    WorkerSessionInfo i = new WorkerSessionInfo();
    i.sessionId = s.id();
    i.owner = s.owner();
    i.program = s.program();
    i.workers = s.workers();
    i.runningWorkers = st.workers();
    i.state = st.state().wireName();
    i.queued = st.queued();
    i.inFlight = st.inFlight();
    i.completionsWaiting = st.completed();
    i.answered = st.answered();
    i.failed = st.failed();
    i.restarts = st.restarts();
    i.opened = s.openedAt();
    i.lastUsed = s.lastUsed();
    i.problem = st.problem().isEmpty() ? null : st.problem();
    return i;
  }
}
