/** How {@link io.gantry.testing.server.GantryTestServer} starts gantry-server processes. */
package io.gantry.testing.server.internal;
