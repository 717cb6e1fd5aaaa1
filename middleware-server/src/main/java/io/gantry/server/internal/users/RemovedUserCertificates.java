package io.gantry.server.internal.users;

import io.gantry.server.internal.jobstore.JobQuery;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.sshca.RevokedCertificates;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * With {@code compute.user-certificates}, what removing a user does to their certificates: every
 * job of theirs still in the job store is written to the server's key revocation list ({@link
 * RevokedCertificates}), so that no certificate of those jobs logs in again on a host whose sshd
 * reads the list ({@code RevokedKeys}), however long it would still be valid.
 */
public final class RemovedUserCertificates {
  private final JobStore store;
  private final RevokedCertificates revoked;
  private final String defaultOsAccount;

  /**
   * @param defaultOsAccount the account of users with none of their own ({@code
   *     jobs.default-os-account}), which their certificates name
   */
  public RemovedUserCertificates(
      JobStore store, RevokedCertificates revoked, String defaultOsAccount) {
    this.store = store;
    this.revoked = revoked;
    this.defaultOsAccount = defaultOsAccount;
  }

  /** The ids of every job of {@code user} in the store, taken before the user is removed. */
  List<String> jobsOf(String user) {
    List<String> ids = new ArrayList<>();
    JobQuery query = JobQuery.ownedBy(user, JobQuery.MAX_LIMIT);
    while (true) {
      List<JobRecord> page = store.list(query);
      page.forEach(job -> ids.add(job.id().value()));
      if (page.size() < JobQuery.MAX_LIMIT) {
        return ids;
      }
      query = query.after(page.get(page.size() - 1));
    }
  }

  /** Revokes the certificates of {@code jobIds}, which ran as {@code osAccount} (null: default). */
  void revoke(String osAccount, List<String> jobIds) throws IOException {
    revoked.revokeJobs(osAccount == null ? defaultOsAccount : osAccount, jobIds);
  }
}
