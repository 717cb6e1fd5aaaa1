package io.gantry.server.internal.compute;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.server.config.ServerConfig;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.SshCredentials;
import java.util.Set;
import java.util.function.Function;

/**
 * What a backend is made from.
 *
 * @param dispatch how programs start on this host (mpirun, sandbox, grace period), without a job
 *     supervisor: a backend adds {@code jobs.supervisor} where its jobs use one
 * @param clusterLogin the SSH login of an identity ({@code identity.NAME.*}) by its name
 * @param gatewayOptions the SSH options the staging gateway uses
 * @param identities the names of the SSH identities the server has
 */
public record BackendContext(
    ServerConfig config,
    DispatcherConfig dispatch,
    Function<String, SshCredentials> clusterLogin,
    GatewayOptions gatewayOptions,
    Set<String> identities) {
  public BackendContext {
    identities = Set.copyOf(identities);
  }
}
