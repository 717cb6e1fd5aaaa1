package io.gantry.server.internal.compute;

import io.gantry.dispatcher.slurm.BatchResources;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.StreamDelivery;
import io.gantry.jsdl.model.core.RangeValueType;
import io.gantry.jsdl.model.core.ResourcesType;
import io.gantry.server.config.ServerConfig;
import java.util.List;
import java.util.Map;

/**
 * What a compute backend makes of a job's resource requests when it is planned: whether a job's own
 * host file is used, whether the job runs in this host's sandbox, whether its job directory lies on
 * a cluster reached over SSH, and the Slurm resources of a job (JSDL Resources, the Partition
 * element, the per-user and server defaults for partition and account).
 *
 * @param backend the {@code compute.backend} value, for messages
 * @param jobHostFiles only the local backend runs on a job's own host file. Elsewhere the
 *     operator's hosts (or Slurm) decide, and a job's file is ignored, so that the same job
 *     description runs unchanged on every backend; its host names never reach ssh with the
 *     operator's key
 * @param sandboxed whether jobs run in this host's sandbox, which shows JSDL file systems at {@code
 *     /fs/NAME}; elsewhere they see the host paths, which must be shared with the nodes
 * @param batchResources whether the backend takes a job's partition and resources (it submits to a
 *     batch system, Slurm): a job naming a partition elsewhere is refused
 * @param remoteJobDirectories whether job directories lie on a cluster reached over SSH ({@code
 *     compute.ssh-host}): task farms and JSDL file systems, things of this host, are refused
 * @param accountDirectories whether each job directory lies in a directory of its owner's account
 *     ({@code ROOT/ACCOUNT/JOB}): on a cluster whose jobs log in as their own accounts ({@code
 *     compute.user-certificates}), where that account makes and owns both
 */
public record ComputePolicy(
    String backend,
    boolean jobHostFiles,
    boolean sandboxed,
    boolean batchResources,
    boolean remoteJobDirectories,
    String partition,
    String account,
    Map<String, ServerConfig.SlurmUser> users,
    boolean accountDirectories) {

  public ComputePolicy {
    users = Map.copyOf(users);
  }

  /**
   * Whether jobs start on other hosts as their owners' accounts, outside this host's sandbox, from
   * job directories on a file system this host shares with them (slurm here: Slurm runs each job as
   * its owner): a job directory that account cannot reach fails only there, so it is refused at
   * submission. Not mpirun-hosts: its ranks run as mpirun.ssh-user on the hosts, whatever the job's
   * owner (docs/security.md).
   */
  public boolean startsOnSharedNodes() {
    return batchResources && !remoteJobDirectories;
  }

  /**
   * Whether a streamed stage-in can be fed into the program while it runs (docs/workflows.md,
   * "Streaming between stages", "Backends"). A FIFO the server writes ({@link StreamDelivery#PIPE})
   * only where the program runs on this host ({@code local}; a FIFO into {@code mpirun-hosts}'
   * POSIX programs, which also run here, is not tested and so not offered). A growing file in the
   * job directory ({@link StreamDelivery#FILE}) wherever job directories lie on this host's file
   * system, which the hosts share at the same path ({@code local}, {@code mpirun-hosts}, {@code
   * slurm}): see {@link #streamsAcrossHosts}; and where job directories lie on a cluster reached
   * over SSH ({@code compute.ssh-host}), appended over SFTP as the job's account, each block on the
   * cluster's file system before the next ({@code JobDirectories#createAppended}).
   */
  public boolean streamsIntoPrograms(StreamDelivery delivery) {
    return delivery == StreamDelivery.FILE || runsOnThisHost();
  }

  /**
   * Whether a job's program reads a streamed file on another host, through this host's shared file
   * system (not on a cluster reached over SSH, whose appends are durable by themselves): the server
   * then makes each block it appends durable (fsync) before the next, so that a reader on another
   * host, of an NFS export say, never sees a later block before an earlier one (an NFS client
   * writes its dirty pages back in no set order).
   */
  public boolean streamsAcrossHosts() {
    return !remoteJobDirectories && !runsOnThisHost();
  }

  private boolean runsOnThisHost() {
    return jobHostFiles;
  }

  /** mpirun on this host, as before: jobs' host files used, no Slurm defaults. */
  public static ComputePolicy local() {
    return new ComputePolicy("local", true, true, false, false, null, null, Map.of(), false);
  }

  /**
   * The job's Slurm resources: ProcessesPerHost (SPMD) to {@code --ntasks-per-node},
   * IndividualPhysicalMemory (bytes per host, exact value or lower bound) to {@code --mem} in MB
   * rounded up, ExclusiveExecution to {@code --exclusive}, the job's Partition, else the user's,
   * else the server's; the account is the user's, else the server's (a job cannot choose whom it
   * charges).
   */
  public BatchResources resources(
      JsdlJob job,
      String owner,
      String jobPartition,
      Integer processesPerHost,
      List<String> problems) {
    ResourcesType r = job.description().getResources();
    Long memoryMb = null;
    boolean exclusive = false;
    if (r != null) {
      Double bytes = amount(r.getIndividualPhysicalMemory());
      if (bytes != null) {
        memoryMb = (long) Math.ceil(bytes / (1024 * 1024));
      }
      exclusive = Boolean.TRUE.equals(r.isExclusiveExecution());
    }
    ServerConfig.SlurmUser user = users.getOrDefault(owner, new ServerConfig.SlurmUser(null, null));
    String part =
        jobPartition != null
            ? jobPartition.strip()
            : user.partition() != null ? user.partition() : partition;
    String acct = user.account() != null ? user.account() : account;
    try {
      return new BatchResources(processesPerHost, memoryMb, exclusive, part, acct);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return BatchResources.none();
    }
  }

  private static Double amount(RangeValueType range) {
    if (range == null) {
      return null;
    }
    if (!range.getExact().isEmpty()) {
      return range.getExact().get(0).getValue();
    }
    return range.getLowerBoundedRange() == null ? null : range.getLowerBoundedRange().getValue();
  }
}
