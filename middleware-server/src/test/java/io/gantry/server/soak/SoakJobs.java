package io.gantry.server.soak;

import io.gantry.server.soap.TestJobs;

/**
 * The jobs the soak's users submit. Each program counts its runs in the file system RUNS (outside
 * its job directory, which a new stage-in would empty), so a program started twice is seen however
 * its job ended.
 */
final class SoakJobs {
  static final String DATA_SOURCE = "risk";
  static final String RESULT_TABLE = "job_result";

  private static final String RUNS_FILE_SYSTEM =
      "</jsdl:Application><jsdl:Resources><jsdl:FileSystem name=\"RUNS\">"
          + "<jsdl:FileSystemType>normal</jsdl:FileSystemType></jsdl:FileSystem>"
          + "</jsdl:Resources>";

  private static final String ARGUMENT =
      "/jsdl:JobDefinition/jsdl:JobDescription/jsdl:Application/posix:POSIXApplication"
          + "/posix:Argument";

  private SoakJobs() {}

  /**
   * A valuation: positions staged in from the risk database, a second of work, one result row (the
   * job's id and the number of positions) staged out into {@link #RESULT_TABLE}.
   */
  static String valuation(String name) {
    return TestJobs.job(name)
        .sqlStageIn(
            DATA_SOURCE,
            1,
            "SELECT position_id, quantity FROM position ORDER BY position_id",
            "positions.csv")
        .shell(
            "echo run >> /fs/RUNS/$GANTRY_JOB_ID; sleep 1;"
                + " n=$(($(wc -l < positions.csv) - 1));"
                + " printf 'job_id,value_at_risk\\n%s,%s\\n' \"$GANTRY_JOB_ID\" \"$n\" > result.csv",
            120)
        .sqlStageOut(
            DATA_SOURCE,
            "INSERT INTO " + RESULT_TABLE + " (job_id, value_at_risk) VALUES (?, ?)",
            "result.csv")
        .xml()
        .replace("</jsdl:Application>", RUNS_FILE_SYSTEM);
  }

  /**
   * A task farm of {@code tasks} tasks on two launchers; each task counts its runs in RUNS under
   * the job's id and its task number. A task whose launcher is lost runs again (the farm's rule).
   */
  static String farm(String name, int tasks) {
    String sweep =
        "<sweep:Sweep>"
            + TestJobs.sweepAssignment(
                ARGUMENT + "[4]", "<sweepfunc:LoopInteger start=\"1\" end=\"" + tasks + "\"/>")
            + "</sweep:Sweep>";
    return TestJobs.job(name)
        .posix(
            120,
            "/bin/sh",
            "-c",
            "echo run >> /fs/RUNS/farm-$GANTRY_JOB_ID-$1; sleep 1",
            "sh",
            "TASK")
        .farmXml("<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>", sweep)
        .replace("</jsdl:Application>", RUNS_FILE_SYSTEM);
  }
}
