/**
 * Fault injection for tests: the named points of a job's life where a server started with {@link
 * io.gantry.server.internal.faults.FaultPoint#PROPERTY} halts as in a crash; inert otherwise.
 */
package io.gantry.server.internal.faults;
