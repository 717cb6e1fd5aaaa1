package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.model.ext.MpirunApplicationType;
import io.gantry.jsdl.model.ext.ProtocolType;
import io.gantry.jsdl.model.ext.SCPDataStagingType;
import io.gantry.jsdl.model.ext.SQLQueryDataStagingType;
import io.gantry.jsdl.model.ext.YesNoType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed view of a job that the staging gateway and dispatcher read. */
class JsdlJobTest {

  @Test
  void theSampleVarJobExposesItsApplicationAndStagingSteps() throws IOException {
    JsdlJob job = new JsdlParser().parse(Path.of("examples/var-job.jsdl")).validJob();
    MpirunApplicationType mpirun = job.mpirunApplication().orElseThrow();
    assertEquals("mcvar", mpirun.getExecutable());
    assertEquals(2, mpirun.getNumberOfProcesses());
    assertEquals(1800, mpirun.getWallTimeLimit());
    assertTrue(mpirun.getArgument().contains("--compress-output"));

    assertEquals(6, job.preDataStaging().size());
    List<SQLQueryDataStagingType> queries = job.sqlQueries();
    assertEquals(
        List.of(1, 1, 1, 2, 2),
        queries.stream().map(SQLQueryDataStagingType::getExecutionOrderGroup).toList());
    assertEquals("factor-ids.csv", queries.get(3).getSQLInputFileName());
    assertEquals(YesNoType.YES, queries.get(3).getSQLOutputFileCompression());
    assertEquals("demo-market", queries.get(0).getDataSourceRef());

    SCPDataStagingType scp = job.scpStageIn().get(0);
    assertEquals("demo-remote", scp.getIdentityRef());
    assertEquals(2222, scp.getRemotePort());

    assertEquals(8, job.sqlUpdates().size(), "every result file of mcvar but node_pnl.csv.gz");
    assertEquals("results/run.csv.gz", job.sqlUpdates().get(0).getSQLInputFileName());
    assertEquals("results/contributions.csv.gz", job.sqlUpdates().get(4).getSQLInputFileName());
    assertTrue(job.scpStageOut().isEmpty());
    assertEquals("var-BANK-daily", job.jobName().orElseThrow(), "filled by its defaults");
  }

  @Test
  void omittedOptionalElementsReadAsTheirDefaults() throws IOException {
    JsdlJob figure2 =
        new JsdlParser().parse(Path.of("examples/bgl-middleware-figure2.jsdl")).validJob();
    SCPDataStagingType scp = figure2.scpStageIn().get(0);
    assertEquals(ProtocolType.SCP, JsdlDefaults.protocol(scp));
    assertEquals(22, JsdlDefaults.port(scp));
    assertFalse(JsdlDefaults.isOn(scp.getCompression()));
    JsdlJob var = new JsdlParser().parse(Path.of("examples/var-job.jsdl")).validJob();
    assertTrue(JsdlDefaults.isOn(var.sqlQueries().get(0).getSQLOutputFileCompression()));
    assertFalse(JsdlDefaults.isOn(var.sqlQueries().get(2).getSQLOutputFileCompression()));
  }

  @Test
  void aJobWithoutExtensionsHasEmptyStagingLists() throws IOException {
    JsdlJob job = new JsdlParser().parse(Path.of("examples/posix-staging.jsdl")).validJob();
    assertTrue(job.preDataStaging().isEmpty());
    assertTrue(job.mpirunApplication().isEmpty());
    assertEquals(2, job.dataStaging().size());
  }
}
