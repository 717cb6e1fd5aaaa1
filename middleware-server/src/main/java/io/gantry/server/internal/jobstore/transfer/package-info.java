/**
 * Moving a job store from one database to another (H2 to PostgreSQL and back), and the counts and
 * checksums that show two stores hold the same rows (docs/operations.md, "Moving the job store").
 */
package io.gantry.server.internal.jobstore.transfer;
