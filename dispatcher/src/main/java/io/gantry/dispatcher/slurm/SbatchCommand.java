package io.gantry.dispatcher.slurm;

import io.gantry.dispatcher.LaunchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sbatch} argument array of a job. The batch script is always the same fixed text
 * ({@link BatchScript}); the job's output files, program and arguments follow it as the script's
 * own arguments, so no text of the job is ever parsed by a shell:
 *
 * <pre>
 * sbatch --parsable --no-requeue --job-name=gantry-ID --chdir=DIR --output=/dev/null --ntasks=N
 *        [--ntasks-per-node=P] [--time=MINUTES] [--mem=MB] [--exclusive] [--partition=P]
 *        [--account=A] [--uid=U --gid=G] -- SCRIPT STDOUT STDERR PROGRAM [ARG]...
 * </pre>
 *
 * Every option is one argument of the form {@code --name=value}: a value starting with '-' cannot
 * be read as an option of its own. Slurm's output is {@code /dev/null} because the script opens the
 * job's files itself: Slurm would expand '%' patterns in file names taken from the job. {@code
 * --no-requeue}: Slurm requeues a batch job whose node failed by default (JobRequeue=1), and would
 * run its program a second time; Gantry runs a program at most once, so the job ends NODE_FAIL
 * instead (docs/reliability.md, "Lost nodes").
 */
public final class SbatchCommand {
  private SbatchCommand() {}

  /**
   * The OS account the job runs under, for root's {@code --uid}/{@code --gid}; null runs it as the
   * submitter.
   */
  public record RunAs(String user, String group) {}

  /**
   * @param program the program and its arguments as the batch script executes them (for MPI jobs
   *     the whole {@code mpirun} command line)
   */
  public static List<String> argv(
      String sbatch,
      LaunchSpec spec,
      BatchResources resources,
      Path script,
      RunAs runAs,
      List<String> program) {
    List<String> argv = new ArrayList<>();
    argv.add(sbatch);
    argv.add("--parsable");
    argv.add("--no-requeue");
    argv.add("--job-name=gantry-" + spec.jobId());
    argv.add("--chdir=" + spec.workingDirectory());
    argv.add("--output=/dev/null");
    argv.add("--ntasks=" + spec.processes());
    if (resources.tasksPerNode() != null) {
      argv.add("--ntasks-per-node=" + resources.tasksPerNode());
    }
    if (spec.wallTimeLimit() != null) {
      argv.add("--time=" + minutes(spec.wallTimeLimit()));
    }
    if (resources.memoryPerNodeMb() != null) {
      argv.add("--mem=" + resources.memoryPerNodeMb());
    }
    if (resources.exclusive()) {
      argv.add("--exclusive");
    }
    if (resources.partition() != null) {
      argv.add("--partition=" + resources.partition());
    }
    if (resources.account() != null) {
      argv.add("--account=" + resources.account());
    }
    if (runAs != null) {
      argv.add("--uid=" + runAs.user());
      argv.add("--gid=" + runAs.group());
    }
    argv.add("--");
    argv.add(script.toString());
    argv.add(spec.stdout().toString());
    argv.add(spec.stderr().toString());
    argv.addAll(program);
    return List.copyOf(argv);
  }

  /**
   * Slurm's {@code --time} is in whole minutes: a limit is rounded up, so a job gets at least what
   * it asked for (90 s becomes 2 minutes). Slurm then ends the job in state TIMEOUT, up to its own
   * poll interval later.
   */
  public static long minutes(Duration limit) {
    long seconds = limit.toSeconds() + (limit.toNanosPart() > 0 ? 1 : 0);
    return Math.max(1, (seconds + 59) / 60);
  }
}
