/**
 * A real gantry-server for the tests of every module: {@link
 * io.gantry.testing.server.GantryTestServer#builder(java.nio.file.Path)}.
 */
package io.gantry.testing.server;
