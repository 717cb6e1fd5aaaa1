package io.gantry.staging.internal.sql;

import java.io.IOException;
import java.io.InputStream;

/**
 * An extract's input file, opened inflated, wherever the job directory lies (the local file, or an
 * SFTP read from the cluster).
 */
@FunctionalInterface
interface InputRows {
  InputStream open() throws IOException;
}
