package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.NodeSandbox;
import io.gantry.server.config.ServerConfig;

/**
 * The sandbox of the compute nodes ({@code mpirun-hosts}, {@code slurm}): the local sandbox's rules
 * (bubblewrap's path, the executable roots, from {@code dispatch}), required on every node unless
 * {@code compute.require-sandbox=false} (docs/security.md, "Sandboxed ranks on the nodes").
 */
final class NodeSandboxes {
  private NodeSandboxes() {}

  static NodeSandbox of(ServerConfig config, DispatcherConfig dispatch) {
    return new NodeSandbox(dispatch.sandbox(), config.sandbox().requireNodeSandbox());
  }
}
