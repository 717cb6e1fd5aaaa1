/**
 * gantry-server: its entry points ({@link io.gantry.server.GantryServer}, assembled from its
 * settings in phases, and {@link io.gantry.server.GantryServerCommand} with its subcommands). The
 * server's public face is this package, {@code api}, {@code web}, {@code config} and {@code auth};
 * everything else is under {@code internal} (docs/architecture.md, "middleware-server's packages").
 */
package io.gantry.server;
