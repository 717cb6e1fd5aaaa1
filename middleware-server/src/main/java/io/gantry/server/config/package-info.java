/**
 * gantry-server's settings (docs/configuration.md): {@link io.gantry.server.config.ServerConfig},
 * read from a properties file and checked before anything starts. Part of the server's public face:
 * {@link io.gantry.server.GantryServer#start} takes it.
 */
package io.gantry.server.config;
