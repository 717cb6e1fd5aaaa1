package io.gantry.server.internal.taskfarm;

import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.farm.TaskFarmSpec;
import io.gantry.server.internal.plan.ProcessCount;
import java.nio.file.Path;
import java.util.List;

/**
 * The launch of a task-farm job: not its application but {@code gantry-launcher}, once per
 * allocated core, started like an MPI program (mpirun locally or across hosts, srun'd mpirun under
 * Slurm) in the job's sandbox and account. The application's working directory, output files, wall
 * time and environment become the launchers' (each task inherits the environment); the dispatcher's
 * address and the job's secret are added at launch ({@link TaskFarmRunner}).
 */
public final class TaskFarmLaunch {
  private TaskFarmLaunch() {}

  public static LaunchSpec spec(
      LaunchSpec application, JsdlJob job, Path launcher, List<String> problems) {
    TaskFarmSpec farm = job.taskFarm().orElseThrow();
    if (launcher == null) {
      problems.add(
          "this server runs no task farms: it has no gantry-launcher (farm.launcher, or build"
              + " node-programs)");
      return null;
    }
    int launchers;
    if (farm.launchers() > 0) {
      launchers = farm.launchers();
      ProcessCount.check(job, launchers, "TaskFarm/Launchers gives", problems);
    } else {
      // one per allocated core: TotalCPUCount (its lower bound for a range), else 1
      launchers = ProcessCount.chosen(job, 1, "one launcher per allocated core", problems);
    }
    LaunchSpec.Builder spec =
        LaunchSpec.builder(application.jobId(), ProgramKind.MPI, launcher.toString())
            .processes(launchers)
            .workingDirectory(application.workingDirectory())
            .jobDirectory(application.jobDirectory())
            .output(application.stdout(), application.stderr())
            .wallTimeLimit(application.wallTimeLimit())
            .independentRanks(true);
    application.environment().forEach(spec::environment);
    return spec.build();
  }
}
