package io.gantry.server.internal.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.OsAccounts;
import io.gantry.dispatcher.SandboxConfig;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.internal.accounts.JobAccounts;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.scheduler.JobFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Fuzz test of the JSDL planner (docs/reliability.md): what the parser accepts, the planner turns
 * into a plan or refuses with a {@link JobFailure} saying why, never another exception (which a
 * submission would answer with a generic server fault). A plan's program reads and writes inside
 * its job directory. Without JAZZER_FUZZ the kept inputs
 * (src/test/resources/io/gantry/server/internal/plan/JobPlannerFuzzTestInputs/plan/) run once.
 */
class JobPlannerFuzzTest {
  private static final JsdlParser PARSER = new JsdlParser();
  private static final Path ROOT = Path.of("/nonexistent/gantry-planner-fuzz/jobs");
  private static final JobId ID = JobId.random();

  /** Data source {@code risk} and identity {@code risk-host} exist; anything else is refused. */
  private static final JobPlanner.DataSourceAccess ACCESS =
      new JobPlanner.DataSourceAccess() {
        @Override
        public String dataSourceProblem(String name, String owner) {
          return name.equals("risk") ? null : "no data source " + name;
        }

        @Override
        public String identityProblem(String name, String owner) {
          return name.equals("risk-host") ? null : "no SSH identity " + name;
        }

        @Override
        public String encryptedSecretProblem(String value, SecretBinding use) {
          return value.startsWith("enc:") ? "was encrypted for another server" : null;
        }
      };

  private static final JobPlanner PLANNER =
      new JobPlanner(
              ROOT,
              Duration.ofHours(1),
              ACCESS,
              new JobAccounts(user -> Optional.empty(), "nobody", OsAccounts.serverUid()),
              SandboxConfig.defaults())
          .withTaskFarms(Path.of("/usr/lib/gantry/gantry-launcher"));

  @FuzzTest(maxDuration = "120s")
  void plan(byte[] document) {
    ParseResult parsed = PARSER.parse(document);
    if (!parsed.isValid()) {
      return;
    }
    JsdlJobPlan plan;
    try {
      plan = PLANNER.plan(ID, "alice", parsed.validJob());
    } catch (JobFailure refused) {
      assertFalse(refused.getMessage() == null || refused.getMessage().isBlank());
      return;
    }
    Path dir = ROOT.resolve(ID.toString());
    assertTrue(plan.jobDirectory().equals(dir), plan.jobDirectory().toString());
    LaunchSpec launch = plan.launch();
    if (launch != null) {
      for (Path p : new Path[] {launch.workingDirectory(), launch.stdout(), launch.stderr()}) {
        assertTrue(p.normalize().startsWith(dir), p + " outside the job directory " + dir);
      }
    }
  }
}
