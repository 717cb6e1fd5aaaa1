package io.gantry.server.soak;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.WorkerCompletion;
import io.gantry.server.api.WorkerCompletions;
import io.gantry.server.api.WorkerMessage;
import io.gantry.server.api.WorkerSessionInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The soak's worker sessions (docs/task-farms.md, "Sessions"): a user opens a session of two
 * session-echo-worker workers, submits a batch of messages, takes their completions and closes it.
 * What a session promises is checked as it goes: every message whose submission was answered with
 * an id is completed exactly once (taken once), an answered message's output is its own input, and
 * a message runs again only by the documented rule (its worker or launcher died: counted, not a
 * violation). A session lives in the server's memory, so one open while the server was killed is
 * gone with it (documented): counted as ended by a restart, its messages not held against it.
 */
final class SoakSessions {
  static final String APPLICATION = "echo";
  static final int WORKERS = 2;
  static final Duration TAKE_FOR = Duration.ofSeconds(60);

  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final List<String> violations = new ArrayList<>();

  /** The settings that offer session-echo-worker as application {@link #APPLICATION}. */
  static Map<String, String> settings(java.nio.file.Path build) {
    return Map.of(
        "application." + APPLICATION + ".executable",
        build.resolve("session-echo-worker").toString(),
        "application." + APPLICATION + ".description",
        "answers each message with itself (the soak's worker sessions)");
  }

  /**
   * One session of {@code user}'s from open to close; returns false when it could not be opened
   * (the server down or restarting: never acknowledged, like a refused submission).
   */
  boolean runOne(SoakServer server, String user, Random random) {
    int generation = server.starts();
    JobManagement client = server.client(user);
    WorkerSessionInfo session;
    try {
      session = client.openWorkerSession(APPLICATION, null, List.of(), WORKERS, 1);
    } catch (Exception refusedOrDown) {
      return false;
    }
    count("opened");
    int n = 4 + random.nextInt(8);
    Map<Long, String> inputOf = new HashMap<>();
    try {
      List<WorkerMessage> batch = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        WorkerMessage m = new WorkerMessage();
        m.input = "sleep " + (100 + random.nextInt(400)) + " " + session.sessionId + "-" + i;
        batch.add(m);
      }
      List<Long> ids = client.submitWorkerMessages(session.sessionId, batch);
      for (int i = 0; i < ids.size(); i++) {
        inputOf.put(ids.get(i), batch.get(i).input.split(" ", 3)[2]);
      }
      count("messages_submitted", ids.size());
    } catch (Exception refusedOrDown) {
      count("batches_refused");
      closeQuietly(client, session);
      return true;
    }
    Map<Long, WorkerCompletion> taken = new HashMap<>();
    String problem = null;
    Instant until = Instant.now().plus(TAKE_FOR);
    while (taken.size() < inputOf.size() && Instant.now().isBefore(until)) {
      try {
        WorkerCompletions got = client.takeWorkerCompletions(session.sessionId, 1000, 5);
        if (got.completions != null) {
          for (WorkerCompletion c : got.completions) {
            if (taken.put(c.messageId, c) != null) {
              violation("message " + c.messageId + " of " + session.sessionId + " taken twice");
            }
          }
        }
      } catch (Exception goneOrDown) {
        problem = goneOrDown.getMessage();
        if (server.starts() != generation) {
          break;
        }
        pause(1_000);
      }
    }
    closeQuietly(client, session);
    check(session.sessionId, inputOf, taken, server.starts() != generation, problem);
    return true;
  }

  private void check(
      String session,
      Map<Long, String> inputOf,
      Map<Long, WorkerCompletion> taken,
      boolean serverRestarted,
      String problem) {
    for (WorkerCompletion c : taken.values()) {
      String expected = inputOf.get(c.messageId);
      if (expected == null) {
        violation("session " + session + " completed message " + c.messageId + ", never sent");
        continue;
      }
      count("messages_completed_" + c.state);
      if (c.attempts > 1) {
        count("messages_run_again");
      }
      if ("answered".equals(c.state) && !expected.equals(c.output)) {
        violation(
            "message "
                + c.messageId
                + " of "
                + session
                + " answered '"
                + c.output
                + "', not '"
                + expected
                + "'");
      }
    }
    long unanswered = inputOf.keySet().stream().filter(id -> !taken.containsKey(id)).count();
    if (unanswered == 0) {
      return;
    }
    if (serverRestarted) {
      count("ended_by_server_restart");
      count("messages_gone_with_server", unanswered);
    } else {
      count("messages_never_completed", unanswered);
      violation(
          unanswered
              + " messages of session "
              + session
              + " never completed (the server ran"
              + " throughout"
              + (problem == null ? "" : "; last answer: " + problem)
              + ")");
    }
  }

  private static void closeQuietly(JobManagement client, WorkerSessionInfo session) {
    try {
      client.closeWorkerSession(session.sessionId);
    } catch (Exception goneOrDown) {
      // gone with a server that was killed, or the server restarting: nothing left to close
    }
  }

  private void count(String what) {
    count(what, 1);
  }

  private void count(String what, long n) {
    counts.computeIfAbsent(what, k -> new AtomicLong()).addAndGet(n);
  }

  private synchronized void violation(String what) {
    violations.add(what);
  }

  /** Reports every count as {@code sessions.NAME}, the promises' counts even when 0. */
  void report(BiConsumer<String, Object> put) {
    for (String always : List.of("opened", "messages_submitted", "messages_never_completed")) {
      counts.computeIfAbsent(always, k -> new AtomicLong());
    }
    new TreeMap<>(counts).forEach((k, v) -> put.accept("sessions." + k, v.get()));
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
