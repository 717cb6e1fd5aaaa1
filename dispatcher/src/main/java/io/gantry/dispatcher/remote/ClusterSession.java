package io.gantry.dispatcher.remote;

import com.jcraft.jsch.Session;
import java.io.IOException;

/**
 * The SSH connection to a cluster's login node that the server shares between staging (SFTP
 * channels) and the launcher (exec channels). Whoever implements it checks the host key strictly
 * and reconnects when the connection dropped.
 */
@FunctionalInterface
public interface ClusterSession {

  /** The connected session; a new one if the last one dropped. */
  Session session() throws IOException;
}
