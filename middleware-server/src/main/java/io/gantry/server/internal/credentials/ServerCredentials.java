package io.gantry.server.internal.credentials;

import io.gantry.jsdl.SecretBinding;
import io.gantry.server.config.NamedDataSource;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.SshIdentity;
import io.gantry.server.internal.plan.JobPlanner;
import io.gantry.server.internal.plan.StandardStagingPlanner;
import io.gantry.server.internal.security.PasswordKeyPair;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.Secret;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriTransfer;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The server's secrets, handed to the staging gateway at the moment of use: named data sources and
 * SSH identities from the configuration, whose passwords and keys are read from their files or
 * environment variables only now, never earlier and never into a log.
 */
public final class ServerCredentials implements CredentialResolver, JobPlanner.DataSourceAccess {
  private final Map<String, NamedDataSource> dataSources;
  private final Map<String, SshIdentity> identities;
  private final PasswordKeyPair passwordKey;

  public ServerCredentials(
      Map<String, NamedDataSource> dataSources,
      Map<String, SshIdentity> identities,
      PasswordKeyPair passwordKey) {
    this.dataSources = Map.copyOf(dataSources);
    this.identities = Map.copyOf(identities);
    this.passwordKey = passwordKey;
  }

  @Override
  public String encryptedSecretProblem(String value, SecretBinding use) {
    // the messages name destinations, and a JDBC URL may hold a password option
    String problem = passwordKey.problem(value, use);
    return problem == null ? null : DataSourceSpec.redactUrl(problem);
  }

  @Override
  public String dataSourceProblem(String name, String owner) {
    NamedDataSource source = dataSources.get(name);
    if (source == null || !source.allows(owner)) {
      // the same words for "no such" and "not yours": names of others' data sources stay private
      return "data source '" + name + "' is not defined on this server for user " + owner;
    }
    return null;
  }

  @Override
  public String identityProblem(String name, String owner) {
    SshIdentity identity = identities.get(name);
    if (identity == null || !identity.allows(owner)) {
      return "SSH identity '" + name + "' is not defined on this server for user " + owner;
    }
    return null;
  }

  /**
   * The names of the data sources {@code user} may use (the rule of {@link #dataSourceProblem}),
   * sorted: names only, never a URL, a database user or a secret.
   */
  @Override
  public SortedSet<String> dataSourceNamesFor(String user) {
    TreeSet<String> names = new TreeSet<>();
    dataSources.forEach(
        (name, source) -> {
          if (source.allows(user)) {
            names.add(name);
          }
        });
    return Collections.unmodifiableSortedSet(names);
  }

  /**
   * The names of the SSH identities {@code user} may use (the rule of {@link #identityProblem}),
   * sorted.
   */
  public SortedSet<String> identityNamesFor(String user) {
    TreeSet<String> names = new TreeSet<>();
    identities.forEach(
        (name, identity) -> {
          if (identity.allows(user)) {
            names.add(name);
          }
        });
    return Collections.unmodifiableSortedSet(names);
  }

  /**
   * Stage-in of a named data source with a reader account connects as the reader; stage-out, and
   * stage-in of one without, as its user.
   */
  @Override
  public DataSourceSpec dataSource(DataSourceRef ref, Access access) {
    NamedDataSource source = ref.name() == null ? null : dataSources.get(ref.name());
    if (access == Access.READ && source != null && source.reader() != null) {
      return new DataSourceSpec(
          source.name(),
          source.jdbcUrl(),
          source.reader().user(),
          secret(source.reader().password()),
          source.maxStatements());
    }
    return dataSource(ref);
  }

  @Override
  public DataSourceSpec dataSource(DataSourceRef ref) {
    if (ref.name() == null) {
      if (ref.passwordToken() == null) {
        return new DataSourceSpec(null, ref.jdbcUrl(), ref.user(), Secret.of(""));
      }
      OwnedSecret token = OwnedSecret.of(ref.passwordToken());
      Secret password =
          decrypted(
              token.value(),
              SecretBinding.jdbc(token.owner(), ref.jdbcUrl()),
              "the password of data source " + ref.describe());
      return new DataSourceSpec(null, ref.jdbcUrl(), ref.user(), password);
    }
    NamedDataSource source = dataSources.get(ref.name());
    if (source == null) {
      throw new IllegalArgumentException(
          "data source '" + ref.name() + "' is not defined on this server");
    }
    return new DataSourceSpec(
        source.name(),
        source.jdbcUrl(),
        source.user(),
        secret(source.password()),
        source.maxStatements());
  }

  /**
   * Standard DataStaging: an encrypted UsernameToken password decrypts only for the job's owner and
   * the URI's {@code scheme://user@host:port}; an identity reference gives that identity's key or
   * password for the URI's user.
   */
  @Override
  public UriLogin uriLogin(UriTransfer transfer) {
    String credential = transfer.credential();
    if (credential == null) {
      return null;
    }
    if (transfer.user() == null) {
      throw new IllegalArgumentException(
          "no remote user to log in as; name it in the URI or the UsernameToken");
    }
    if (OwnedSecret.isToken(credential)) {
      OwnedSecret token = OwnedSecret.of(credential);
      return new UriLogin(
          transfer.user(),
          SshCredentials.password(
              decrypted(
                  token.value(),
                  StandardStagingPlanner.binding(token.owner(), transfer),
                  "the UsernameToken Password")));
    }
    return new UriLogin(transfer.user(), identity(credential, "DataStaging " + transfer.order()));
  }

  @Override
  public SshCredentials ssh(RemoteTransfer transfer) {
    String name = transfer.credential();
    if (OwnedSecret.isToken(name)) {
      OwnedSecret token = OwnedSecret.of(name);
      return SshCredentials.password(
          decrypted(
              token.value(),
              SecretBinding.ssh(token.owner(), transfer.user(), transfer.host(), transfer.port()),
              "the RemotePassword for " + transfer.user() + "@" + transfer.host()));
    }
    return identity(name, "transfer " + transfer.arrangingOrder() + " to " + transfer.host());
  }

  /**
   * The server's own login to the cluster ({@code compute.ssh-identity}), read at each connection
   * like every identity; no job can name it unless an {@code identity.NAME.users} entry allows.
   */
  public SshCredentials clusterLogin(String identityName) {
    return identity(identityName, "compute.ssh-identity");
  }

  private SshCredentials identity(String name, String use) {
    SshIdentity identity = name == null ? null : identities.get(name);
    if (identity == null) {
      throw new IllegalArgumentException(
          use + ": no SSH identity named '" + name + "' on this server");
    }
    if (identity.privateKeyFile() != null) {
      try {
        byte[] key = Files.readAllBytes(identity.privateKeyFile());
        Secret passphrase =
            identity.secret() instanceof PasswordSource.None ? null : secret(identity.secret());
        return SshCredentials.privateKey(key, passphrase);
      } catch (IOException e) {
        throw new IllegalStateException(
            "SSH identity '"
                + name
                + "': cannot read its key file "
                + identity.privateKeyFile()
                + ": "
                + e.getMessage());
      }
    }
    return SshCredentials.password(secret(identity.secret()));
  }

  /**
   * Decrypts at the moment of use, for the owner and destination of this use only: a value bound to
   * another user or destination fails here, before any connection is opened. The clear text lives
   * only in the returned Secret.
   */
  private Secret decrypted(String value, SecretBinding use, String what) {
    char[] clear;
    try {
      clear = passwordKey.decrypt(value, use);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + " " + DataSourceSpec.redactUrl(e.getMessage()));
    }
    try {
      return Secret.of(clear);
    } finally {
      Arrays.fill(clear, '\0');
    }
  }

  private static Secret secret(PasswordSource source) {
    char[] value = source.read();
    try {
      return Secret.of(value);
    } finally {
      Arrays.fill(value, '\0');
    }
  }
}
