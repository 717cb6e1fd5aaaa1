package io.gantry.jsdl.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.ParserOptions;
import io.gantry.jsdl.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GFD.149 sweeps and Gantry's TaskFarm: tasks counted and made, impossible farms refused. */
class TaskFarmReaderTest {
  private static final String HEAD =
      """
      <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
          xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"
          xmlns:gx="urn:gantry:jsdl:ext:1"
          xmlns:sweep="http://schemas.ogf.org/jsdl/2009/03/sweep"
          xmlns:sweepfunc="http://schemas.ogf.org/jsdl/2009/03/sweep/functions">
        <jsdl:JobDescription>
          <jsdl:Application>
            <posix:POSIXApplication>
              <posix:Executable>/usr/bin/price</posix:Executable>
              <posix:Argument>--instrument</posix:Argument>
              <posix:Argument>X</posix:Argument>
              <posix:Argument>--scenario</posix:Argument>
              <posix:Argument>0</posix:Argument>
              <posix:Environment name="CURVE">EUR</posix:Environment>
            </posix:POSIXApplication>
          </jsdl:Application>
          <jsdl:Resources><jsdl:TotalCPUCount><jsdl:Exact>2</jsdl:Exact></jsdl:TotalCPUCount></jsdl:Resources>
      """;

  private static String job(String farm, String sweep) {
    return HEAD + farm + "\n  </jsdl:JobDescription>\n" + sweep + "\n</jsdl:JobDefinition>\n";
  }

  private static String assignment(String match, String function) {
    return "<sweep:Assignment><sweep:DocumentNode><sweep:Match>"
        + match
        + "</sweep:Match></sweep:DocumentNode>"
        + function
        + "</sweep:Assignment>";
  }

  private static final String ARG2 =
      "/jsdl:JobDefinition/jsdl:JobDescription/jsdl:Application/posix:POSIXApplication/posix:Argument[2]";
  private static final String ARG4 =
      "/jsdl:JobDefinition/jsdl:JobDescription/jsdl:Application/posix:POSIXApplication/posix:Argument[4]";

  @Test
  void aNestedSweepMakesTheCrossProductInSweepOrder() {
    String sweep =
        "<sweep:Sweep>"
            + assignment(
                ARG2,
                "<sweepfunc:Values><sweepfunc:Value>AAPL</sweepfunc:Value>"
                    + "<sweepfunc:Value>MSFT, Inc.</sweepfunc:Value></sweepfunc:Values>")
            + "<sweep:Sweep>"
            + assignment(
                ARG4,
                "<sweepfunc:LoopInteger start=\"1\" end=\"500\"><sweepfunc:Exception>7</sweepfunc:Exception>"
                    + "</sweepfunc:LoopInteger>")
            + assignment(
                "//posix:Environment[@name='CURVE']",
                "<sweepfunc:LoopInteger start=\"1000\" end=\"4\" step=\"-2\"/>")
            + "</sweep:Sweep></sweep:Sweep>";
    TaskFarmSpec farm = valid(job("", sweep));
    assertEquals(998, farm.sweepTaskCount());
    assertEquals(List.of("sweep_1", "sweep_2", "sweep_3"), farm.inputNames());
    List<TaskInstance> tasks = farm.sweepTasks();
    assertEquals(998, tasks.size());
    assertEquals(List.of("--instrument", "AAPL", "--scenario", "1"), tasks.get(0).arguments());
    assertEquals(Map.of("CURVE", "1000"), tasks.get(0).environment());
    assertEquals(List.of("AAPL", "1", "1000"), tasks.get(0).inputs());
    assertEquals("8", tasks.get(6).arguments().get(3), "7 is an Exception");
    TaskInstance last = tasks.get(997);
    assertEquals(List.of("--instrument", "MSFT, Inc.", "--scenario", "500"), last.arguments());
    assertEquals("4", last.environment().get("CURVE"));
    assertEquals("/usr/bin/price", last.executable());
    assertEquals(0, farm.launchers(), "one per allocated core by default");
    assertEquals(TaskFarmSpec.Priority.NORMAL, farm.priority());
    assertEquals("task-results.csv", farm.resultFileName());
  }

  @Test
  void theTaskFarmSettingsAreRead() {
    String farm =
        "<gx:TaskFarm><gx:Launchers>4</gx:Launchers><gx:Priority>high</gx:Priority>"
            + "<gx:RetriesPerTask>1</gx:RetriesPerTask><gx:TaskWallTime>30</gx:TaskWallTime>"
            + "<gx:OutputBytes>100</gx:OutputBytes><gx:ResultFileName>prices.csv</gx:ResultFileName>"
            + "</gx:TaskFarm>";
    TaskFarmSpec spec =
        valid(job(farm, "<sweep:Sweep>" + assignment(ARG2, values("A")) + "</sweep:Sweep>"));
    assertEquals(4, spec.launchers());
    assertEquals(TaskFarmSpec.Priority.HIGH, spec.priority());
    assertEquals(1, spec.retries());
    assertEquals(30, spec.taskWallTimeSeconds());
    assertEquals(100, spec.outputBytes());
    assertEquals("prices.csv", spec.resultFileName());
  }

  @Test
  void tasksFromAFileBindColumnsToArgumentsAndEnvironment() {
    String farm =
        "<gx:TaskFarm><gx:TasksFromFile><gx:FileName>instruments.csv</gx:FileName>"
            + "<gx:Argument column=\"position_id\"/><gx:Environment name=\"STRIKE\" column=\"strike\"/>"
            + "<gx:PriorityColumn>urgency</gx:PriorityColumn></gx:TasksFromFile></gx:TaskFarm>";
    TaskFarmSpec spec = valid(job(farm, ""));
    assertEquals("instruments.csv", spec.taskFile().fileName());
    assertEquals("urgency", spec.taskFile().priorityColumn());
    assertEquals(List.of("position_id", "strike"), spec.inputNames());
    TaskInstance t =
        spec.fileTask(Map.of("position_id", "P7", "strike", "101.5"), TaskFarmSpec.Priority.HIGH);
    assertEquals(List.of("--instrument", "X", "--scenario", "0", "P7"), t.arguments());
    assertEquals(Map.of("CURVE", "EUR", "STRIKE", "101.5"), t.environment());
  }

  @Test
  void aMatchThatSelectsNothingIsRefusedAtItsLine() {
    String sweep =
        "<sweep:Sweep>"
            + assignment(ARG2.replace("Argument[2]", "Argument[9]"), values("A"))
            + "</sweep:Sweep>";
    Problem p = onlyError(job("", sweep));
    assertTrue(p.message().contains("selects nothing"), p.toString());
    assertEquals(20, p.line(), p.toString());
  }

  @Test
  void aMatchOutsideTheApplicationIsRefused() {
    String sweep =
        "<sweep:Sweep>"
            + assignment("//jsdl:TotalCPUCount/jsdl:Exact", values("4"))
            + "</sweep:Sweep>";
    Problem p = onlyError(job("", sweep));
    assertTrue(p.message().contains("may vary only the POSIXApplication"), p.toString());
  }

  @Test
  void impossibleFarmsAreRefusedBeforeQueueing() {
    // unequal assignments in one sweep
    Problem p =
        onlyError(
            job(
                "",
                "<sweep:Sweep>"
                    + assignment(ARG2, values("A", "B"))
                    + assignment(ARG4, values("1"))
                    + "</sweep:Sweep>"));
    assertTrue(p.message().contains("as many values"), p.toString());
    // every value excepted: no task
    p =
        onlyError(
            job(
                "",
                "<sweep:Sweep>"
                    + assignment(
                        ARG2,
                        "<sweepfunc:LoopInteger start=\"1\" end=\"1\"><sweepfunc:Exception>1"
                            + "</sweepfunc:Exception></sweepfunc:LoopInteger>")
                    + "</sweep:Sweep>"));
    assertTrue(p.message().contains("no value"), p.toString());
    // a loop that never ends
    p =
        onlyError(
            job(
                "",
                "<sweep:Sweep>"
                    + assignment(ARG2, "<sweepfunc:LoopInteger start=\"5\" end=\"1\"/>")
                    + "</sweep:Sweep>"));
    assertTrue(p.message().contains("never reaches its end"), p.toString());
    // a TaskFarm without tasks
    p = onlyError(job("<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>", ""));
    assertTrue(p.message().contains("needs tasks"), p.toString());
  }

  @Test
  void aSweepOverTheServersLimitIsRefusedWithItsCount() {
    String sweep =
        "<sweep:Sweep>"
            + assignment(ARG2, "<sweepfunc:LoopInteger start=\"1\" end=\"300\"/>")
            + "<sweep:Sweep>"
            + assignment(ARG4, "<sweepfunc:LoopInteger start=\"1\" end=\"400\"/>")
            + "</sweep:Sweep></sweep:Sweep>";
    ParseResult r =
        new JsdlParser(ParserOptions.defaults().withMaxFarmTasks(100_000)).parse(job("", sweep));
    assertEquals(1, r.report().errors().size(), r.report().toString());
    Problem p = r.report().errors().get(0);
    assertTrue(
        p.message().contains("120000 tasks, over this server's limit of 100000"), p.toString());
    assertTrue(p.line() > 0 && p.column() > 0, p.toString());
  }

  @Test
  void aFarmNeedsAPosixApplication() {
    String mpi =
        job("", "<sweep:Sweep>" + assignment(ARG2, values("A")) + "</sweep:Sweep>")
            .replaceAll(
                "(?s)<posix:POSIXApplication>.*</posix:POSIXApplication>",
                "<gx:MpirunApplication><gx:Executable>/bin/true</gx:Executable>"
                    + "<gx:NumberOfProcesses>2</gx:NumberOfProcesses></gx:MpirunApplication>");
    Problem p = onlyError(mpi);
    assertTrue(p.message().contains("POSIXApplication"), p.toString());
  }

  private static String values(String... v) {
    StringBuilder b = new StringBuilder("<sweepfunc:Values>");
    for (String s : v) {
      b.append("<sweepfunc:Value>").append(s).append("</sweepfunc:Value>");
    }
    return b.append("</sweepfunc:Values>").toString();
  }

  private static TaskFarmSpec valid(String xml) {
    ParseResult r = new JsdlParser().parse(xml);
    assertTrue(r.isValid(), () -> "invalid: " + r.report().errors());
    return r.validJob().taskFarm().orElseThrow();
  }

  private static Problem onlyError(String xml) {
    ParseResult r = new JsdlParser().parse(xml);
    assertEquals(1, r.report().errors().size(), r.report().toString());
    return r.report().errors().get(0);
  }
}
