/**
 * The durable job store: {@link io.gantry.server.internal.jobstore.JobStore} and its JDBC
 * implementation on H2 (default, a file) or PostgreSQL (shared deployments). Every state change is
 * committed, and made durable, before the caller acts on it; schema changes are versioned Flyway
 * migrations under {@code io/gantry/server/internal/jobstore/migration}.
 */
package io.gantry.server.internal.jobstore;
