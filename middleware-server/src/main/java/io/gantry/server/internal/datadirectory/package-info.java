/**
 * The server's data directory and job directories on disk: kept owner-only, job directories removed
 * after their retention, and each job's disk use held to its limits.
 */
package io.gantry.server.internal.datadirectory;
