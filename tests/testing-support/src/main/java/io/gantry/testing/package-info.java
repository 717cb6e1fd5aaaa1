/** Shared test fixtures: real databases and an SSH host on loopback, started by tests. */
package io.gantry.testing;
