package io.gantry.cli;

import io.gantry.cli.internal.soap.SoapFaultException;
import io.gantry.cli.soap.WorkerCompletion;
import io.gantry.cli.soap.WorkerCompletions;
import io.gantry.cli.soap.WorkerMessage;
import io.gantry.cli.soap.WorkerSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry worker-session open|submit|take|status|list|close}: sessions of long-lived workers
 * (docs/task-farms.md, "Sessions"). Named apart from {@code gantry session}, which manages login
 * tokens.
 */
@Command(
    name = "worker-session",
    mixinStandardHelpOptions = true,
    description = {
      "Sessions of long-lived workers: N copies of a program, started once in your sandbox and"
          + " account, each reading task messages on its standard input (one line each) and"
          + " answering each on its standard output, so that what it loads stays loaded.",
      "Submit batches of messages with a priority, take the answers as they come, close the"
          + " session when done. (gantry session manages login tokens.)"
    },
    subcommands = {
      WorkerSessionCommand.Open.class,
      WorkerSessionCommand.Submit.class,
      WorkerSessionCommand.Take.class,
      WorkerSessionCommand.Status.class,
      WorkerSessionCommand.ListSessions.class,
      WorkerSessionCommand.Close.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  s=$(gantry worker-session open --quiet --application pricer --workers 2)",
      "  gantry worker-session submit \"$s\" --file positions.txt     # one message per line",
      "  gantry worker-session submit \"$s\" --priority high 'call,1,100,0.03,100,1,0.2'",
      "  gantry worker-session take \"$s\" --count 1001              # until 1001 are taken",
      "  gantry worker-session close \"$s\"",
      ExitCodes.HELP
    })
final class WorkerSessionCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE_OR_IO;
  }

  @Command(
      name = "open",
      mixinStandardHelpOptions = true,
      description = {
        "Open a session: its workers start now. Prints the session (--quiet: its id only)."
      })
  static final class Open implements Callable<Integer> {
    @ParentCommand WorkerSessionCommand parent;
    @Spec CommandSpec spec;

    @ArgGroup(multiplicity = "1")
    Program program;

    static final class Program {
      @Option(
          names = "--application",
          paramLabel = "NAME",
          description = "an application the server offers (gantry applications)")
      String application;

      @Option(
          names = "--executable",
          paramLabel = "PATH",
          description = "a program your jobs may run (under the server's executable roots)")
      String executable;
    }

    @Option(
        names = "--arg",
        paramLabel = "ARGUMENT",
        description = "an argument for --executable; repeatable")
    List<String> arguments;

    @Option(
        names = "--workers",
        paramLabel = "N",
        defaultValue = "1",
        description = "how many workers (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(
        names = "--window",
        paramLabel = "N",
        description =
            "messages a worker holds unanswered (default 256; 1 for tasks of seconds, so that a"
                + " waiting message goes to the first worker free)")
    Integer window;

    @Override
    public Integer call() {
      Invocation gantry = parent.gantry;
      WorkerSession s =
          ask(
              gantry,
              j ->
                  j.openWorkerSession(
                      program.application,
                      program.executable,
                      arguments == null ? List.of() : arguments,
                      workers,
                      window));
      print(gantry, spec.commandLine().getOut(), List.of(s));
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "submit",
      mixinStandardHelpOptions = true,
      description = {
        "Submit messages: each MESSAGE argument, or each line of --file (- for standard input),"
            + " is one message. Prints the ids the server gave them, one per line."
      })
  static final class Submit implements Callable<Integer> {
    /** Lines sent per request: a file of a million lines goes in several batches. */
    static final int BATCH = 10_000;

    @ParentCommand WorkerSessionCommand parent;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "the session's id")
    String session;

    @Parameters(index = "1..*", paramLabel = "MESSAGE", description = "messages")
    List<String> messages;

    @Option(
        names = "--file",
        paramLabel = "FILE",
        description = "one message per line (- for standard input)")
    String file;

    @Option(
        names = "--priority",
        paramLabel = "high|normal",
        defaultValue = "normal",
        description = "of every message submitted (default: ${DEFAULT-VALUE})")
    String priority;

    @Override
    public Integer call() {
      String p = priority.strip().toLowerCase(Locale.ROOT);
      if (!p.equals("high") && !p.equals("normal")) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO, "--priority " + priority + ": high or normal");
      }
      List<String> inputs = new ArrayList<>(messages == null ? List.of() : messages);
      if (file != null) {
        inputs.addAll(lines(parent.gantry, file));
      }
      if (inputs.isEmpty()) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO, "no message: give MESSAGE arguments or --file");
      }
      Invocation gantry = parent.gantry;
      PrintWriter out = spec.commandLine().getOut();
      List<Long> ids = new ArrayList<>(inputs.size());
      for (int from = 0; from < inputs.size(); from += BATCH) {
        List<WorkerMessage> batch = new ArrayList<>();
        for (String input : inputs.subList(from, Math.min(inputs.size(), from + BATCH))) {
          WorkerMessage m = new WorkerMessage();
          m.setInput(input);
          m.setPriority(p);
          batch.add(m);
        }
        List<Long> got = ask(gantry, j -> j.submitWorkerMessages(session, batch));
        ids.addAll(got == null ? List.of() : got);
      }
      if (gantry.json) {
        JsonOutput.print(out, Map.of("sessionId", session, "messageIds", ids));
        return ExitCodes.OK;
      }
      ids.forEach(out::println);
      out.flush();
      return ExitCodes.OK;
    }

    private static List<String> lines(Invocation gantry, String file) {
      try (BufferedReader r =
          file.equals("-")
              ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
              : Files.newBufferedReader(gantry.file(Path.of(file)), StandardCharsets.UTF_8)) {
        return r.lines().toList();
      } catch (IOException | java.io.UncheckedIOException e) {
        throw new CommandFailure(ExitCodes.USAGE_OR_IO, file + ": cannot read: " + e.getMessage());
      }
    }
  }

  @Command(
      name = "take",
      mixinStandardHelpOptions = true,
      description = {
        "Take completions as they arrive: waits up to --wait seconds for the first. With --count,"
            + " takes until that many are taken. Prints ID, STATE, ATTEMPTS, WORKER and the"
            + " output (tab-separated, the output's tabs, line breaks and backslashes escaped"
            + " as \\t, \\n and \\\\). Exit 5 when --count was not reached in --timeout."
      })
  static final class Take implements Callable<Integer> {
    @ParentCommand WorkerSessionCommand parent;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "the session's id")
    String session;

    @Option(
        names = "--max",
        paramLabel = "N",
        defaultValue = "10000",
        description = "the most completions one request takes (default: ${DEFAULT-VALUE})")
    int max;

    @Option(
        names = "--wait",
        paramLabel = "SECONDS",
        defaultValue = "20",
        description = "how long a request waits for a first completion, 0 to 20 (default: 20)")
    int waitSeconds;

    @Option(
        names = "--count",
        paramLabel = "N",
        description = "take until N completions are taken (or the session breaks)")
    Long count;

    @Option(
        names = "--timeout",
        paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "with --count: give up after this long (e.g. 10m; default: no limit)")
    java.time.Duration timeout;

    @Override
    public Integer call() {
      Invocation gantry = parent.gantry;
      PrintWriter out = spec.commandLine().getOut();
      long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
      long taken = 0;
      List<Map<String, Object>> json = new ArrayList<>();
      WorkerSession last;
      do {
        long want = count == null ? max : Math.min(max, count - taken);
        WorkerCompletions got =
            ask(gantry, j -> j.takeWorkerCompletions(session, (int) want, waitSeconds));
        last = got.getSession();
        for (WorkerCompletion c : got.getCompletion()) {
          taken++;
          if (gantry.json) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("messageId", c.getMessageId());
            one.put("state", c.getState());
            one.put("output", c.getOutput());
            one.put("truncated", c.isTruncated());
            one.put("attempts", c.getAttempts());
            one.put("worker", c.getWorker());
            json.add(one);
          } else {
            out.println(
                c.getMessageId()
                    + "\t"
                    + c.getState()
                    + "\t"
                    + c.getAttempts()
                    + "\t"
                    + c.getWorker()
                    + "\t"
                    + escape(c.getOutput())
                    + (c.isTruncated() ? "\t(truncated)" : ""));
          }
        }
        out.flush();
        boolean over = "broken".equals(last.getState()) || "closed".equals(last.getState());
        if (count == null || taken >= count || (over && got.getCompletion().isEmpty())) {
          break;
        }
      } while (System.nanoTime() < deadline);
      if (gantry.json) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("session", sessionJson(last));
        answer.put("completions", json);
        JsonOutput.print(out, answer);
      }
      if (count != null && taken < count) {
        spec.commandLine()
            .getErr()
            .println(
                "took "
                    + taken
                    + " of "
                    + count
                    + "; session "
                    + last.getState()
                    + (last.getProblem() == null ? "" : ": " + last.getProblem()));
        spec.commandLine().getErr().flush();
        return "open".equals(last.getState()) || "starting".equals(last.getState())
            ? ExitCodes.TIMEOUT
            : ExitCodes.NEGATIVE;
      }
      return ExitCodes.OK;
    }

    private static String escape(String s) {
      return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "One session.")
  static final class Status implements Callable<Integer> {
    @ParentCommand WorkerSessionCommand parent;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "SESSION", description = "the session's id")
    String session;

    @Override
    public Integer call() {
      Invocation gantry = parent.gantry;
      WorkerSession s = ask(gantry, j -> j.getWorkerSession(session));
      print(gantry, spec.commandLine().getOut(), List.of(s));
      return ExitCodes.OK;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Your open sessions.")
  static final class ListSessions implements Callable<Integer> {
    @ParentCommand WorkerSessionCommand parent;
    @Spec CommandSpec spec;

    @Option(names = "--all", description = "every user's sessions (administrators only)")
    boolean allUsers;

    @Override
    public Integer call() {
      Invocation gantry = parent.gantry;
      List<WorkerSession> all = ask(gantry, j -> j.listWorkerSessions(allUsers));
      print(gantry, spec.commandLine().getOut(), all == null ? List.of() : all);
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "close",
      mixinStandardHelpOptions = true,
      description =
          "Close a session: its workers' input is closed and they get 2 s to exit. Messages not"
              + " answered and completions not taken are dropped.")
  static final class Close implements Callable<Integer> {
    @ParentCommand WorkerSessionCommand parent;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "SESSION", description = "the session's id")
    String session;

    @Override
    public Integer call() {
      Invocation gantry = parent.gantry;
      WorkerSession s = ask(gantry, j -> j.closeWorkerSession(session));
      print(gantry, spec.commandLine().getOut(), List.of(s));
      return ExitCodes.OK;
    }
  }

  /**
   * A call whose argument faults are the user's mistake: an unknown session (or another user's)
   * exits 4 as an unknown job does, another argument exits 2.
   */
  private static <T> T ask(Invocation gantry, ServerConnection.Operation<T> operation) {
    try {
      return gantry.connect().call(operation);
    } catch (CommandFailure e) {
      if (e.getCause() instanceof SoapFaultException fault
          && "Client".equals(fault.faultCode())
          && fault.getMessage() != null
          && fault.getMessage().startsWith("argument ")) {
        throw new CommandFailure(
            fault.getMessage().startsWith("argument sessionId: no worker session")
                ? ExitCodes.NOT_FOUND
                : ExitCodes.USAGE_OR_IO,
            fault.getMessage(),
            fault);
      }
      throw e;
    }
  }

  private static Map<String, Object> sessionJson(WorkerSession s) {
    Map<String, Object> one = new LinkedHashMap<>();
    one.put("sessionId", s.getSessionId());
    one.put("owner", s.getOwner());
    one.put("program", s.getProgram());
    one.put("workers", s.getWorkers());
    one.put("runningWorkers", s.getRunningWorkers());
    one.put("state", s.getState());
    one.put("queued", s.getQueued());
    one.put("inFlight", s.getInFlight());
    one.put("completionsWaiting", s.getCompletionsWaiting());
    one.put("answered", s.getAnswered());
    one.put("failed", s.getFailed());
    one.put("restarts", s.getRestarts());
    one.put("opened", Times.json(s.getOpened()));
    one.put("lastUsed", Times.json(s.getLastUsed()));
    one.put("problem", s.getProblem());
    return one;
  }

  private static void print(Invocation gantry, PrintWriter out, List<WorkerSession> sessions) {
    if (gantry.json) {
      List<Map<String, Object>> json = new ArrayList<>();
      sessions.forEach(s -> json.add(sessionJson(s)));
      JsonOutput.print(out, Map.of("sessions", json));
      return;
    }
    if (gantry.quiet) {
      sessions.forEach(s -> out.println(s.getSessionId()));
      out.flush();
      return;
    }
    TextTable table =
        new TextTable(
            "SESSION",
            "OWNER",
            "PROGRAM",
            "STATE",
            "WORKERS",
            "QUEUED",
            "RUNNING",
            "WAITING",
            "ANSWERED",
            "FAILED",
            "RESTARTS",
            "OPENED",
            "PROBLEM");
    for (WorkerSession s : sessions) {
      table.row(
          s.getSessionId(),
          s.getOwner(),
          TextTable.cut(s.getProgram(), 40),
          s.getState(),
          s.getRunningWorkers() + "/" + s.getWorkers(),
          Integer.toString(s.getQueued()),
          Integer.toString(s.getInFlight()),
          Integer.toString(s.getCompletionsWaiting()),
          Long.toString(s.getAnswered()),
          Long.toString(s.getFailed()),
          Integer.toString(s.getRestarts()),
          s.getOpened() == null ? null : Times.text(s.getOpened()),
          TextTable.cut(s.getProblem(), 60));
    }
    if (sessions.isEmpty()) {
      out.println("no worker sessions");
    } else {
      table.print(out);
    }
    out.flush();
  }
}
