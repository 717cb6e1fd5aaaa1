package io.gantry.server.internal.compute;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where and how jobs' programs run: one implementation per {@code compute.backend} value (local,
 * mpirun-hosts, slurm, and slurm on a cluster reached over SSH), made by {@link ComputeBackends}.
 * It owns how a program starts and is followed again after a restart, where job directories lie,
 * and which account and sandbox a job gets; the job pipeline, task farms and worker sessions ask it
 * and never which backend it is.
 *
 * <p>A started job's reference (e.g. "slurm:42", or a job supervisor's) is handed to {@link
 * ProgramStart#references()} before anything else happens, so that a restarted server finds the job
 * again through {@link #reattach}.
 */
public interface ComputeBackend extends AutoCloseable {

  /** The {@code compute.backend} value, for logs and messages. */
  String name();

  /** What this backend makes of a job's resource requests when it is planned. */
  ComputePolicy policy();

  /** Where job directories lie, and how staging reaches them. */
  JobDirectories directories();

  /**
   * Makes the job's directories ready for its program: output directories created, and where the
   * job runs as its owner's OS account, the job directory and its staged files given to that
   * account.
   *
   * @return the account the program runs as; null: the account this backend itself runs jobs as
   */
  JobAccount prepare(ProgramStart job) throws JobFailure, IOException;

  /** Starts the job's program as {@code account} (from {@link #prepare}). */
  RunningJob start(ProgramStart job, JobAccount account) throws LaunchException, JobFailure;

  /**
   * Follows a job an earlier server started, by the reference it stored; empty when the reference
   * is no job's this backend can follow (the job is lost).
   *
   * @throws JobFailure saying why a job this server cannot follow is lost
   */
  Optional<RunningJob> reattach(String jobId, String reference) throws JobFailure;

  /**
   * As {@link #reattach(String, String)}, told where the job's directory is (a backend whose jobs
   * log in to a cluster as their own accounts finds the job's account there).
   */
  default Optional<RunningJob> reattach(String jobId, Path jobDirectory, String reference)
      throws JobFailure {
    return reattach(jobId, reference);
  }

  /**
   * The reference of a job whose program this backend started but whose reference was not stored
   * (the server stopped in between), where what runs the job recorded it itself (a job supervisor's
   * start record); empty when there is none (the program never started, or this backend keeps no
   * such record).
   */
  default Optional<String> startedReference(String jobId) {
    return Optional.empty();
  }

  /**
   * Why this backend could not start a job now (e.g. its launcher program is missing), or empty;
   * asked by the operations listener's /readyz. It probes nothing remote: a cluster reached over
   * SSH is reached per job.
   */
  Optional<String> readinessProblem();

  /**
   * Why a job of OS account {@code account} could not reach where it runs (a cluster login as that
   * account that fails), naming the account and host; asked at submit. Empty by default.
   */
  default Optional<String> accountReachProblem(String account) {
    return Optional.empty();
  }

  /** Why this backend runs no task farms, or empty when it runs them. */
  Optional<String> farmRefusal();

  /**
   * Starts a task farm's launchers ({@code launchers}, with the farm's environment); their
   * reference goes to {@link ProgramStart#references()} first.
   */
  RunningJob startFarmLaunchers(ProgramStart job, LaunchSpec launchers, JobAccount account)
      throws LaunchException;

  /**
   * Stops what a farm's launchers left running before a restart ({@code reference} as {@link
   * #startFarmLaunchers} stored it), so that new launchers can resume the farm.
   */
  void stopFarmLaunchers(String jobId, String reference) throws JobFailure;

  /** Why this backend runs no worker sessions, or empty when it runs them. */
  Optional<String> sessionRefusal();

  /**
   * Starts a worker session's launchers in {@code directory} (created private, given to {@code
   * account}); they end with this server, never under a job supervisor.
   */
  RunningJob startSessionWorkers(Path directory, LaunchSpec launchers, JobAccount account)
      throws LaunchException, IOException;

  /** The job is final: nothing of it need be followed again after a restart. */
  void forget(String jobId);

  /** Stops following jobs; what runs outside this server (Slurm, job supervisors) keeps running. */
  @Override
  void close();
}
