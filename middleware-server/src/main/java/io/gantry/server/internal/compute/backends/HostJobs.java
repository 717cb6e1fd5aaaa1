package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.JobAccount;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The account policy of the backends whose job directories lie on this host (local, mpirun-hosts,
 * slurm): a job runs as its owner's OS account, which gets the job directory just before the
 * program starts (files staged into JSDL file systems were written as that account already).
 */
final class HostJobs {
  private HostJobs() {}

  static JobAccount prepare(ProgramStart job) throws JobFailure, IOException {
    // looked up again now, not at submission: the mapping or the account may have changed since
    JobAccount account = job.owner().account();
    if (job.launch().hostFile() != null) {
      LocalHostFile.check(job.jobDirectory(), job.launch().hostFile()); // only local jobs have one
    }
    Files.createDirectories(job.launch().workingDirectory());
    Files.createDirectories(job.launch().stdout().getParent());
    Files.createDirectories(job.launch().stderr().getParent());
    JobDirectoryOwner.give(job.jobDirectory(), account);
    // files staged into JSDL file systems were written as the job's account: nothing to hand over
    return account;
  }

  /** A worker session's directory, private and given to the session's account. */
  static void prepareSession(Path directory, JobAccount account) throws IOException {
    JobDirectoryOwner.createPrivate(directory);
    JobDirectoryOwner.give(directory, account);
  }
}
