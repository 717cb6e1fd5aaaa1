package io.gantry.dispatcher;

import io.gantry.dispatcher.internal.JobSandbox;
import java.util.ArrayList;
import java.util.List;

/**
 * The job sandbox on the compute nodes ({@code mpirun-hosts}, {@code slurm}): every rank, farm
 * launcher and session worker starts inside bubblewrap on its node, with the options of the local
 * sandbox ({@link JobSandbox#onNode}: the same namespaces, read-only system, job directory at
 * {@code /job}, private /tmp), as the account it already runs under there.
 *
 * <p>A rank's program becomes {@code /bin/sh -c NODE_SCRIPT gantry-node-sandbox MODE JOBDIR BWRAP
 * [OPTION]... -- PROGRAM [ARG]...}. The script is fixed text, without any text of the job: it reads
 * everything as its own arguments. It checks on the node itself that bubblewrap is there; where it
 * is not, a required sandbox ends the rank with a message naming the node (exit 126) instead of
 * running it unconfined, and an optional one runs the program unconfined, with host paths.
 *
 * <p>Open MPI's daemon on the node (or mpirun, on a Slurm job's first node) runs outside the
 * sandbox, and its ranks keep their PMIx data store in the job's session directory under the node's
 * /tmp, which every rank of the job on that node shares: the script binds that one directory
 * ({@code OMPI_MCA_orte_jobfam_session_dir}, set by Open MPI, never by the job) into the rank's
 * private /tmp, at the same path. Open MPI's shared-memory transport (vader) cannot join ranks that
 * each have a PID namespace of their own (they crash in their first collective), so the script
 * turns it off ({@code OMPI_MCA_btl=^vader}, for the rank only): ranks on one node talk over the
 * loopback network instead.
 *
 * @param sandbox bubblewrap's path on the nodes, and the executable roots they show
 * @param required whether a node without bubblewrap refuses the job ({@code
 *     compute.require-sandbox}) rather than running it there unconfined
 */
public record NodeSandbox(SandboxConfig sandbox, boolean required) {

  /** The script every rank starts with; its arguments: MODE JOBDIR BWRAP [OPTION]... -- PROGRAM. */
  static final String NODE_SCRIPT =
      """
      mode=$1 jobdir=$2
      shift 2
      if [ -x "$1" ]; then
        export OMPI_MCA_btl=^vader
        s=${OMPI_MCA_orte_jobfam_session_dir:-}
        if [ -n "$s" ] && [ -d "$s" ]; then
          bound=
          for a do
            shift
            if [ -z "$bound" ] && [ "$a" = -- ]; then set -- "$@" --bind "$s" "$s"; bound=1; fi
            set -- "$@" "$a"
          done
        fi
        exec "$@"
      fi
      if [ "$mode" = required ]; then
        echo "gantry: node $(hostname): $1 is missing; every rank runs in a sandbox on its node" \\
          "(compute.require-sandbox): install bubblewrap there" >&2
        exit 126
      fi
      while [ "$#" -gt 0 ] && [ "$1" != -- ]; do shift; done
      shift
      case $1 in /job/*) p=$jobdir${1#/job}; shift; set -- "$p" "$@";; esac
      exec "$@"
      """;

  /**
   * What one rank on a node runs to tell whether a sandbox starts there: one line, {@code
   * gantry-sandbox-probe HOST: ok} or {@code gantry-sandbox-probe HOST: } and what is missing.
   */
  static final String PROBE_SCRIPT =
      """
      set -f
      h="gantry-sandbox-probe $(hostname)"
      if [ ! -x "$1" ]; then echo "$h: $1 is missing"; exit 0; fi
      if out=$("$1" --unshare-pid --unshare-ipc --ro-bind / / -- /bin/true 2>&1); then
        echo "$h: ok"
      else
        echo "$h: $1 cannot start a sandbox:" $out
      fi
      """;

  private static final String PROBE_PREFIX = "gantry-sandbox-probe ";

  public NodeSandbox {
    java.util.Objects.requireNonNull(sandbox, "sandbox");
  }

  /**
   * The spec with its program replaced by the node script, which starts the original program in the
   * sandbox (paths as the sandbox shows them); working directory, job directory, outputs and
   * environment stay the node's, for mpirun's {@code --wdir} and sbatch's {@code --chdir}.
   */
  public LaunchSpec wrap(LaunchSpec spec) throws LaunchException {
    JobSandbox confinement = new JobSandbox(sandbox);
    LaunchSpec inside = confinement.insideOnNode(spec);
    List<String> args = new ArrayList<>();
    args.add("-c");
    args.add(NODE_SCRIPT);
    args.add("gantry-node-sandbox");
    args.add(required ? "required" : "optional");
    args.add(spec.jobDirectory().toAbsolutePath().normalize().toString());
    args.addAll(confinement.onNode(spec, inside));
    args.add("--");
    args.add(inside.executable());
    args.addAll(spec.arguments());
    return spec.withProgram("/bin/sh", args);
  }

  /** The probe's program and arguments, for one rank on each node. */
  public List<String> probe() {
    return List.of(
        "/bin/sh", "-c", PROBE_SCRIPT, "gantry-sandbox-probe", sandbox.bwrap().toString());
  }

  /**
   * The problems in a probe's output, each naming its node; empty when every node answered ok.
   * Lines of anything else (mpirun's warnings) are left out.
   *
   * @throws IllegalArgumentException when no node answered at all
   */
  public static List<String> problems(String probeOutput) {
    List<String> answers =
        probeOutput
            .lines()
            .map(String::strip)
            .filter(l -> l.startsWith(PROBE_PREFIX))
            .map(l -> l.substring(PROBE_PREFIX.length()))
            .toList();
    if (answers.isEmpty()) {
      throw new IllegalArgumentException("no node answered: " + probeOutput.strip());
    }
    return answers.stream().filter(l -> !l.endsWith(": ok")).toList();
  }
}
