package io.gantry.server.web;

import io.gantry.server.api.JobManagementService;
import io.gantry.server.auth.UserAuthenticator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What the server hands a {@link WebFace}: the job-management service (to be used through {@link
 * JobManagementService#actingFor} with the logged-in user), the user accounts' authenticator (empty
 * on a single-user server without authentication, where everyone acts as {@code local}), a
 * directory of its own under the data directory, the session settings, and the names of the
 * server's credentials each user may use.
 *
 * @param secure whether the server speaks HTTPS, so that session cookies are marked Secure
 * @param credentialNames for a user name, the named data sources and SSH identities of the server's
 *     configuration that this user may refer to in a job (the same rule the server applies when it
 *     checks a job)
 */
public record WebFaceContext(
    JobManagementService jobs,
    Optional<UserAuthenticator> authenticator,
    Path dataDirectory,
    Duration sessionIdleTimeout,
    boolean secure,
    Function<String, CredentialNames> credentialNames) {

  /**
   * Names a user may use: nothing else of a data source or identity (no URL, database user, key or
   * password) ever reaches a web face.
   */
  public record CredentialNames(SortedSet<String> dataSources, SortedSet<String> sshIdentities) {
    public CredentialNames {
      dataSources = Collections.unmodifiableSortedSet(new TreeSet<>(dataSources));
      sshIdentities = Collections.unmodifiableSortedSet(new TreeSet<>(sshIdentities));
    }
  }
}
