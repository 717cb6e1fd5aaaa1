package io.gantry.staging.internal.sql;

import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.internal.net.HostPort;
import io.gantry.staging.internal.net.InlineJdbcUrl;
import java.util.List;

/**
 * What a failure to connect to an inline data source (a URL from the job) reads, other than a
 * refused login: "could not connect to HOST:PORT", so that a job cannot use the error text to tell
 * a closed port from a filtered one or from a service that is not a database.
 */
public final class InlineConnectFailure {
  private InlineConnectFailure() {}

  public static String describe(DataSourceSpec spec) {
    List<String> hosts;
    try {
      hosts = InlineJdbcUrl.parse(spec.jdbcUrl()).hosts().stream().map(HostPort::toString).toList();
    } catch (IllegalArgumentException e) {
      hosts = List.of();
    }
    return "could not connect to " + (hosts.isEmpty() ? "the database" : String.join(", ", hosts));
  }
}
