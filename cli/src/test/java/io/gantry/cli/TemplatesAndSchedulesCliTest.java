package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** submit --set, status and definition of a template job, resubmit, and schedule commands. */
@ExtendWith(CliServers.Plain.class)
class TemplatesAndSchedulesCliTest {
  static GantryRun gantry;
  @TempDir Path dir;

  @BeforeAll
  static void connect(GantryTestServer server) {
    gantry = new GantryRun(server.baseUrl());
  }

  private Path template() throws Exception {
    return Files.writeString(
        dir.resolve("positions.jsdl"),
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                            xmlns:gx="urn:gantry:jsdl:ext:1">
          <jsdl:JobDescription>
            <jsdl:JobIdentification><jsdl:JobName>positions-${portfolio}</jsdl:JobName></jsdl:JobIdentification>
            <gx:Parameters>
              <gx:Parameter name="portfolio" description="position.portfolio_id"/>
              <gx:Parameter name="business_date" type="date" default="2026-11-20"/>
            </gx:Parameters>
            <gx:PreDataStaging>
              <gx:SQLQueryDataStaging>
                <gx:DataSourceRef>demo-market</gx:DataSourceRef>
                <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
                <gx:SQLStatement>SELECT position_id FROM position WHERE portfolio_id = ${portfolio}</gx:SQLStatement>
                <gx:SQLOutputFileName>positions.csv</gx:SQLOutputFileName>
              </gx:SQLQueryDataStaging>
            </gx:PreDataStaging>
          </jsdl:JobDescription>
        </jsdl:JobDefinition>
        """);
  }

  @Test
  void submitSetFillsTheTemplateAndStatusDefinitionAndResubmitShowIt() throws Exception {
    Path file = template();
    Result submit = gantry.run("submit", "--wait", file.toString(), "--set", "portfolio=DESK-1");
    assertEquals(0, submit.exitCode(), submit.toString());
    String id = SubmitAndInspectTest.submittedId(submit);
    Result status = gantry.run("status", id);
    assertTrue(
        status.out().contains("parameters: portfolio=DESK-1, business_date=2026-11-20"),
        status.toString());
    Result definition = gantry.run("definition", id);
    assertTrue(definition.out().contains("portfolio_id = ${portfolio}"), definition.toString());
    assertTrue(
        definition
            .out()
            .contains(
                "<!-- the values this job was filled with: portfolio=DESK-1,"
                    + " business_date=2026-11-20 -->"),
        definition.toString());
    Result json = gantry.run("--json", "status", id);
    assertTrue(
        json.out().replaceAll("\\s", "").contains("\"parameters\":{\"portfolio\":\"DESK-1\""),
        json.toString());

    Result again = gantry.run("resubmit", id, "--set", "business_date=2026-11-19", "--wait");
    assertEquals(0, again.exitCode(), again.toString());
    String first = again.out().lines().findFirst().orElseThrow();
    assertTrue(first.matches("submitted job [a-z0-9]{32} \\(resubmission of " + id + "\\)"), first);
    String newId = first.substring("submitted job ".length(), "submitted job ".length() + 32);
    Result newStatus = gantry.run("status", newId);
    assertTrue(
        newStatus.out().contains("parameters: portfolio=DESK-1, business_date=2026-11-19")
            && newStatus.out().contains("resubmission of " + id),
        newStatus.toString());

    // a chain of one stage, rerun from it by its name (docs/workflows.md)
    Result chain = gantry.run("resubmit", "--from-stage", "positions-DESK-1", newId);
    assertEquals(0, chain.exitCode(), chain.toString());
    assertTrue(
        chain.out().strip().matches("positions-DESK-1 " + newId + " -> [a-z2-7]{32}"),
        chain.toString());
    Result noStage = gantry.run("resubmit", "--from-stage", "pricing", newId);
    assertEquals(2, noStage.exitCode(), noStage.toString());
    assertTrue(
        noStage.err().contains("no stage pricing in the chain; its stages are positions-DESK-1"),
        noStage.toString());
    Result twoJobs = gantry.run("resubmit", id, newId);
    assertEquals(2, twoJobs.exitCode(), twoJobs.toString());
    // two runs of one name told apart in the job list by the values each was filled with
    Result list = gantry.run("list", "--limit", "1000");
    assertTrue(list.out().lines().findFirst().orElseThrow().contains(" PARAMETERS "), list.out());
    assertTrue(
        list.out()
            .lines()
            .anyMatch(
                l ->
                    l.matches(
                        id + "  positions-DESK-1 .* portfolio=DESK-1 business_date=2026-11-20 .*")),
        list.toString());
    assertTrue(
        list.out()
            .lines()
            .anyMatch(
                l ->
                    l.matches(
                        newId
                            + "  positions-DESK-1 .* portfolio=DESK-1 business_date=2026-11-19 .*")),
        list.toString());
    Result listJson = gantry.run("--json", "list", "--limit", "1000");
    assertTrue(
        listJson
                .out()
                .replaceAll("\\s", "")
                .contains("\"jobId\":\"" + newId + "\",\"name\":\"positions-DESK-1\",")
            && listJson
                .out()
                .replaceAll("\\s", "")
                .contains(
                    "\"parameters\":{\"portfolio\":\"DESK-1\",\"business_date\":\"2026-11-19\"}"),
        listJson.toString());
  }

  @Test
  void aChainIsSubmittedAsOneUnitOneLineAStage() throws Exception {
    String template = Files.readString(template());
    String positions =
        template
            .substring(
                template.indexOf("<jsdl:JobDescription>"),
                template.indexOf("</jsdl:JobDefinition>"))
            .replace("positions-${portfolio}", "positions");
    Path chain =
        Files.writeString(
            dir.resolve("chain.xml"),
            """
            <gx:JobChain xmlns:gx="urn:gantry:jsdl:ext:1"
                         xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                         xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix">
              <jsdl:JobDefinition><jsdl:JobDescription>
                <jsdl:JobIdentification><jsdl:JobName>done</jsdl:JobName></jsdl:JobIdentification>
                <jsdl:Application><posix:POSIXApplication>
                  <posix:Executable>/bin/true</posix:Executable>
                </posix:POSIXApplication></jsdl:Application>
                <gx:Dependencies><gx:After>positions</gx:After></gx:Dependencies>
              </jsdl:JobDescription></jsdl:JobDefinition>
              <jsdl:JobDefinition>"""
                + positions
                + """
              </jsdl:JobDefinition>
            </gx:JobChain>
            """);
    Result submit = gantry.run("submit", "--wait", chain.toString(), "--set", "portfolio=DESK-1");
    assertEquals(0, submit.exitCode(), submit.toString());
    List<String> lines = submit.out().lines().toList();
    assertEquals("submitted chain of 2 stages", lines.get(0), submit.toString());
    assertTrue(lines.get(1).matches("positions [a-z2-7]{32}"), submit.toString());
    assertTrue(lines.get(2).matches("done      [a-z2-7]{32}"), submit.toString());
    String done = lines.get(2).substring(10);
    assertTrue(gantry.run("status", done).out().contains("SUCCEEDED"), done);

    Result after = gantry.run("submit", "--after", done, chain.toString());
    assertEquals(ExitCodes.USAGE_OR_IO, after.exitCode(), after.toString());
    assertTrue(after.err().contains("write them in the chain's stages"), after.toString());
    Result unknown = gantry.run("submit", chain.toString(), "--set", "desk=DESK-1");
    assertEquals(ExitCodes.NEGATIVE, unknown.exitCode(), unknown.toString());
    assertTrue(
        unknown.err().contains("parameter desk is given a value but no stage declares it"),
        unknown.toString());
  }

  @Test
  void missingUnknownAndMalformedValuesAreRefusedBeforeAnythingIsSent() throws Exception {
    Path file = template();
    Result missing = gantry.run("submit", file.toString());
    assertEquals(1, missing.exitCode(), missing.toString());
    assertTrue(
        missing.err().contains("parameter portfolio has no value and no default"),
        missing.toString());
    Result unknown =
        gantry.run("submit", file.toString(), "--set", "portfolio=A", "--set", "desk=RATES");
    assertTrue(
        unknown.err().contains("parameter desk is given a value but is not declared"),
        unknown.toString());
    Result mistyped =
        gantry.run(
            "submit", file.toString(), "--set", "portfolio=A", "--set", "business_date=tomorrow");
    assertTrue(mistyped.err().contains("parameter business_date (date)"), mistyped.toString());
    Result empty = gantry.run("submit", file.toString(), "--set", "portfolio=");
    assertEquals(1, empty.exitCode(), empty.toString());
    assertTrue(
        empty.err().contains("parameter portfolio is given an empty value"), empty.toString());
    Result wrongDay =
        gantry.run(
            "submit", file.toString(), "--set", "portfolio=A", "--set", "business_date=2026-11-31");
    assertTrue(
        wrongDay.err().contains("'2026-11-31' is not a day: November 2026 has 30 days"),
        wrongDay.toString());
    Result malformed = gantry.run("submit", file.toString(), "--set", "portfolio");
    assertEquals(2, malformed.exitCode(), malformed.toString());
    assertTrue(malformed.err().contains("write NAME=VALUE"), malformed.toString());
    Result validate = gantry.run("validate", file.toString(), "--set", "portfolio=A");
    assertEquals(0, validate.exitCode(), validate.toString());
  }

  @Test
  void scheduleAddListPauseResumeAndRemove() throws Exception {
    Path file = template();
    Result add =
        gantry.run(
            "schedule",
            "add",
            "cli-nightly",
            file.toString(),
            "--cron",
            "30 18 * * 1-5",
            "--time-zone",
            "Europe/London",
            "--set",
            "portfolio=DESK-1",
            "--set",
            "business_date=${schedule.date}",
            "--missed",
            "skip");
    assertEquals(0, add.exitCode(), add.toString());
    assertTrue(add.out().startsWith("NAME "), add.toString());
    Result list = gantry.run("schedule", "list");
    assertTrue(
        list.out()
            .lines()
            .anyMatch(
                l ->
                    l.startsWith("cli-nightly  local  30 18 * * 1-5  Europe/London  active")
                        && l.contains("portfolio=DESK-1, business_date=${schedule.date}")),
        list.toString());
    Result paused = gantry.run("schedule", "pause", "cli-nightly");
    assertEquals(0, paused.exitCode(), paused.toString());
    assertTrue(paused.out().contains("  paused  "), paused.toString());
    Result ranNow = gantry.run("--quiet", "schedule", "run", "cli-nightly");
    assertEquals(0, ranNow.exitCode(), ranNow.toString());
    assertTrue(ranNow.out().strip().matches("[a-z2-7]{32}"), "the job's id: " + ranNow);
    Result ranStatus = gantry.run("status", ranNow.out().strip());
    assertEquals(0, ranStatus.exitCode(), ranStatus.toString());
    Result resumed = gantry.run("--json", "schedule", "resume", "cli-nightly");
    assertTrue(
        resumed.out().replaceAll("\\s", "").contains("\"paused\":false"), resumed.toString());
    Result badCron =
        gantry.run(
            "schedule",
            "add",
            "bad",
            file.toString(),
            "--cron",
            "every night",
            "--set",
            "portfolio=A");
    assertEquals(2, badCron.exitCode(), badCron.toString());
    assertTrue(badCron.err().contains("argument cron"), badCron.toString());
    Result invalid =
        gantry.run("schedule", "add", "no-values", file.toString(), "--cron", "0 6 * * *");
    assertEquals(1, invalid.exitCode(), invalid.toString());
    assertTrue(invalid.err().contains("parameter portfolio has no value"), invalid.toString());
    Result removed = gantry.run("schedule", "remove", "cli-nightly");
    assertEquals(0, removed.exitCode(), removed.toString());
    assertTrue(
        removed
            .out()
            .lines()
            .anyMatch(l -> l.startsWith("cli-nightly ") && l.contains(" removed ")),
        removed.toString());
    assertFalse(removed.out().contains("active"), removed.toString());
    assertFalse(gantry.run("schedule", "list").out().contains("cli-nightly"));
    // the server's answer with no schedules is an empty list, not a missing one
    Result none = gantry.run("schedule", "list");
    assertEquals(0, none.exitCode(), none.toString());
    assertEquals("no schedules", none.out().strip(), none.toString());
    Result noneJson = gantry.run("--json", "schedule", "list");
    assertEquals(0, noneJson.exitCode(), noneJson.toString());
    assertTrue(
        noneJson.out().replaceAll("\\s", "").contains("\"schedules\":[]"), noneJson.toString());
    Result gone = gantry.run("schedule", "pause", "cli-nightly");
    assertEquals(2, gone.exitCode(), gone.toString());
    assertTrue(gone.err().contains("no schedule cli-nightly"), gone.toString());
  }

  @Test
  void notifyAddListAndRemoveCheckTheAllowListsAndTheSchedule() throws Exception {
    Result schedule =
        gantry.run(
            "schedule",
            "add",
            "cli-notified",
            template().toString(),
            "--cron",
            "0 6 1 1 *",
            "--set",
            "portfolio=DESK-1");
    assertEquals(0, schedule.exitCode(), schedule.toString());
    Result hook =
        gantry.run(
            "notify",
            "add",
            "https://localhost/gantry?token=s3cret",
            "--schedule",
            "cli-notified",
            "--event",
            "schedule.missed",
            "--event",
            "io.gantry.job.failed");
    assertEquals(0, hook.exitCode(), hook.toString());
    Result mail =
        gantry.run("--quiet", "notify", "add", "risk@bank.example", "--schedule", "cli-notified");
    assertEquals(0, mail.exitCode(), mail.toString());
    String mailId = mail.out().strip();
    assertTrue(mailId.matches("[a-z0-9]{32}"), mail.toString());

    Result list = gantry.run("notify", "list");
    assertTrue(
        list.out()
            .lines()
            .anyMatch(
                l ->
                    l.contains("https://localhost/gantry ")
                        && l.contains("schedule.missed job.failed")
                        && l.contains("cli-notified")),
        list.toString());
    assertFalse(list.out().contains("s3cret"), "a webhook's query is never shown: " + list);
    assertTrue(list.out().contains("risk@bank.example"), list.toString());

    Result offList = gantry.run("notify", "add", "https://elsewhere.example/hook");
    assertEquals(2, offList.exitCode(), offList.toString());
    assertTrue(offList.err().contains("not on notify.allowed-hosts"), offList.toString());
    Result mailOffList = gantry.run("notify", "add", "x@elsewhere.example");
    assertTrue(mailOffList.err().contains("not on notify.mail-allowed"), mailOffList.toString());
    Result noSchedule =
        gantry.run("notify", "add", "risk@bank.example", "--schedule", "no-such-schedule");
    assertTrue(noSchedule.err().contains("no schedule no-such-schedule"), noSchedule.toString());
    Result badEvent = gantry.run("notify", "add", "risk@bank.example", "--event", "Job Failed");
    assertTrue(badEvent.err().contains("'Job Failed' is no event type"), badEvent.toString());

    Result removed = gantry.run("--json", "notify", "remove", mailId);
    assertEquals(0, removed.exitCode(), removed.toString());
    assertTrue(
        removed.out().replaceAll("\\s", "").contains("\"removed\":true"), removed.toString());
    // the schedule's subscriptions go with it
    assertEquals(0, gantry.run("schedule", "remove", "cli-notified").exitCode());
    Result none = gantry.run("notify", "list");
    assertEquals("no subscriptions", none.out().strip(), none.toString());
  }
}
