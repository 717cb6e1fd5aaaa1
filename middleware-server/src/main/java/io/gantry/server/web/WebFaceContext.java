package io.gantry.server.web;

import io.gantry.server.security.UserAuthenticator;
import io.gantry.server.service.JobManagementService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What the server hands a {@link WebFace}: the job-management service (to be used through {@link
 * JobManagementService#actingFor} with the logged-in user), the user accounts' authenticator
 * (empty on a single-user server without authentication, where everyone acts as {@code local}),
 * a directory of its own under the data directory, and the session settings.
 *
 * @param secure whether the server speaks HTTPS, so that session cookies are marked Secure
 */
public record WebFaceContext(
    JobManagementService jobs,
    Optional<UserAuthenticator> authenticator,
    Path dataDirectory,
    Duration sessionIdleTimeout,
    boolean secure) {}
