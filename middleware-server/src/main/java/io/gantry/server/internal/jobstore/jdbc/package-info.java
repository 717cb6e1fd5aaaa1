/**
 * The job store's JDBC rows, transactions and schema migrations, behind {@link
 * io.gantry.server.internal.jobstore.JdbcJobStore}.
 */
package io.gantry.server.internal.jobstore.jdbc;
