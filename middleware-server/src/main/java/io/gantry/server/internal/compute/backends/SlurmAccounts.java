package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.slurm.SbatchCommand;

/**
 * The account a Slurm job runs under: the job owner's OS account, by root's {@code sbatch --uid=UID
 * --gid=GID}. Numeric ids, checked non-root by {@link JobAccount}, so the name service of the nodes
 * cannot map them elsewhere than the server's did.
 */
final class SlurmAccounts {
  private SlurmAccounts() {}

  static SbatchCommand.RunAs runAs(JobAccount account) {
    return account == null
        ? null
        : new SbatchCommand.RunAs(Integer.toString(account.uid()), Integer.toString(account.gid()));
  }
}
