/** The staging gateway: SQL and scp/sftp stage-in and stage-out into blocked-gzip CSV files. */
package io.gantry.staging;
