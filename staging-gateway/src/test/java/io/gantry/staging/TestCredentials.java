package io.gantry.staging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The credential side a server provides, backed by maps: named data sources and SSH logins per
 * user. Tests register what their plans refer to.
 */
final class TestCredentials implements CredentialResolver {
  private final Map<String, DataSourceSpec> dataSources = new ConcurrentHashMap<>();
  private final Map<String, SshCredentials> logins = new ConcurrentHashMap<>();

  TestCredentials dataSource(String name, DataSourceSpec spec) {
    dataSources.put(name, spec);
    return this;
  }

  TestCredentials login(String user, SshCredentials credentials) {
    logins.put(user, credentials);
    return this;
  }

  @Override
  public DataSourceSpec dataSource(DataSourceRef ref) {
    if (ref.name() == null) {
      return new DataSourceSpec(
          null,
          ref.jdbcUrl(),
          ref.user(),
          Secret.of(ref.passwordToken() == null ? "" : ref.passwordToken()));
    }
    DataSourceSpec spec = dataSources.get(ref.name());
    if (spec == null) {
      throw new IllegalArgumentException("no data source named '" + ref.name() + "' is configured");
    }
    return spec;
  }

  @Override
  public SshCredentials ssh(RemoteTransfer transfer) {
    SshCredentials c = logins.get(transfer.user());
    if (c == null) {
      throw new IllegalArgumentException("no login configured for " + transfer.user());
    }
    return c;
  }

  /** Standard staging: the login registered for the transfer's user, or anonymous without one. */
  @Override
  public UriLogin uriLogin(UriTransfer transfer) {
    if (transfer.user() == null) {
      return null;
    }
    SshCredentials c = logins.get(transfer.user());
    if (c == null) {
      throw new IllegalArgumentException("no login configured for " + transfer.user());
    }
    return new UriLogin(transfer.user(), c);
  }
}
