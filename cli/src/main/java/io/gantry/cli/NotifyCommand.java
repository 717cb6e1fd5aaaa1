package io.gantry.cli;

import io.gantry.cli.soap.NotifySubscription;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry notify add|list|remove}: standing notification subscriptions, so that the events of
 * all your jobs (or of one schedule's) reach a webhook or mailbox without a gx:Notify in each job.
 */
@Command(
    name = "notify",
    mixinStandardHelpOptions = true,
    description = {
      "Standing notifications: events of all your jobs and schedules, or of one schedule and the"
          + " jobs it submits, sent to an https webhook or a mailbox the server's operator allows"
          + " (notify.allowed-hosts, notify.mail-allowed).",
      "Events: job.state-changed, job.failed, job.stage-in-finished, job.stage-out-finished,"
          + " schedule.fired, schedule.missed, schedule.skipped, or * for every one."
    },
    subcommands = {
      NotifyCommand.Add.class,
      NotifyCommand.ListAll.class,
      NotifyCommand.Remove.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry notify add risk-desk@bank.example --event job.failed --event schedule.missed",
      "  gantry notify add https://hooks.bank.example/gantry --schedule var-bank",
      "  gantry notify list",
      ExitCodes.HELP
    })
final class NotifyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @ParentCommand Invocation gantry;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE_OR_IO;
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = "Add a subscription: the events go to TARGET from now on.")
  static final class Add implements Callable<Integer> {
    @ParentCommand NotifyCommand notify;
    @Spec CommandSpec spec;

    @Parameters(
        paramLabel = "TARGET",
        description = "an https:// webhook URL or an e-mail address (user@domain)")
    String target;

    @Option(
        names = "--event",
        paramLabel = "TYPE",
        description = "an event type, e.g. job.failed; repeatable (default: every event)")
    List<String> events;

    @Option(
        names = "--schedule",
        paramLabel = "NAME|ID",
        description = "only that schedule of yours: its events and its jobs' events")
    String schedule;

    @Override
    public Integer call() {
      NotifySubscription added =
          notify
              .gantry
              .connect()
              .call(
                  s ->
                      s.addNotifySubscription(
                          target, events == null ? List.of() : events, schedule));
      print(notify.gantry, spec.commandLine().getOut(), List.of(added), false);
      return ExitCodes.OK;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Your subscriptions.")
  static final class ListAll implements Callable<Integer> {
    @ParentCommand NotifyCommand notify;
    @Spec CommandSpec spec;

    @Option(names = "--all", description = "every user's subscriptions (administrators only)")
    boolean allUsers;

    @Override
    public Integer call() {
      List<NotifySubscription> all =
          notify.gantry.connect().call(s -> s.listNotifySubscriptions(allUsers));
      print(notify.gantry, spec.commandLine().getOut(), all, false);
      return ExitCodes.OK;
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove a subscription.")
  static final class Remove implements Callable<Integer> {
    @ParentCommand NotifyCommand notify;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "the subscription's id (gantry notify list)")
    String id;

    @Override
    public Integer call() {
      NotifySubscription removed =
          notify.gantry.connect().call(s -> s.removeNotifySubscription(id));
      print(notify.gantry, spec.commandLine().getOut(), List.of(removed), true);
      return ExitCodes.OK;
    }
  }

  /** The subscriptions as a table, JSON or ids; {@code removed}: they were just removed. */
  private static void print(
      Invocation gantry, PrintWriter out, List<NotifySubscription> subscriptions, boolean removed) {
    if (gantry.json) {
      List<Map<String, Object>> json = new ArrayList<>();
      for (NotifySubscription s : subscriptions) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("subscriptionId", s.getSubscriptionId());
        one.put("owner", s.getOwner());
        one.put("webhook", s.getWebhook());
        one.put("mail", s.getMail());
        one.put("events", s.getEvent());
        one.put("schedule", s.getSchedule());
        one.put("created", Times.json(s.getCreated()));
        if (removed) {
          one.put("removed", true);
        }
        json.add(one);
      }
      JsonOutput.print(out, Map.of("subscriptions", json));
      return;
    }
    if (gantry.quiet) {
      subscriptions.forEach(s -> out.println(s.getSubscriptionId()));
      out.flush();
      return;
    }
    TextTable table = new TextTable("TARGET", "EVENTS", "SCHEDULE", "OWNER", "ID");
    for (NotifySubscription s : subscriptions) {
      table.row(
          (removed ? "removed: " : "") + (s.getMail() != null ? s.getMail() : s.getWebhook()),
          String.join(" ", s.getEvent()),
          s.getSchedule(),
          s.getOwner(),
          s.getSubscriptionId());
    }
    if (subscriptions.isEmpty()) {
      out.println("no subscriptions");
    } else {
      table.print(out);
    }
    out.flush();
  }
}
