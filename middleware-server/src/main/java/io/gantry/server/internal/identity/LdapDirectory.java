package io.gantry.server.internal.identity;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.JVMDefaultTrustManager;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;
import io.gantry.server.auth.UserAccount;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.security.Directory;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An LDAP directory or Active Directory, reached with the UnboundID LDAP SDK, only over TLS (LDAPS,
 * or StartTLS before anything else is sent), with the directory's certificate checked against the
 * configured authorities and its host name.
 *
 * <ol>
 *   <li>A user is found by the configured filter under the user base, searched as the service
 *       account; the filter is where a site leaves disabled users out (Active Directory: {@code
 *       (!(userAccountControl:1.2.840.113556.1.4.803:=2))}). Exactly one entry must match.
 *   <li>The password is checked by a simple bind as that entry, on a connection of its own that is
 *       closed right after: Gantry never sees a hash and caches no password.
 *   <li>Roles come from group membership: a group's entry is asked, as the service account, whether
 *       its {@code member} attribute holds the user's DN (groupOfNames and Active Directory groups
 *       alike; nested groups are not followed). A member of directory.admin-group is an
 *       administrator; anyone else the filter finds is a user, if directory.user-group is unset or
 *       has them as a member, and is refused otherwise.
 *   <li>The OS account is the value of the configured attribute.
 *   <li>A lookup (a call with a token, the role check of each call) is remembered for
 *       directory.recheck-after (a few seconds); a login with a password always asks the directory.
 *       An unreachable directory refuses (fails closed) and is logged.
 * </ol>
 */
public final class LdapDirectory implements Directory {
  private static final Logger log = LoggerFactory.getLogger(LdapDirectory.class);
  private static final int MAX_REMEMBERED = 10_000;
  private static final int TIMEOUT_MILLIS = 10_000;
  private final ServerConfig.Directory settings;
  private final SSLSocketFactory tls;
  private final Clock clock;
  private final Map<String, Remembered> looked =
      new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  private record Remembered(Optional<DirectoryUser> user, Instant until) {}

  /** A user's entry as the filter found it. */
  private record Entry(String dn, Optional<String> osAccount) {}

  public LdapDirectory(ServerConfig.Directory settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    try {
      X509TrustManager trust =
          settings.caFile().isPresent()
              ? new PEMFileTrustManager(settings.caFile().get().toFile())
              : JVMDefaultTrustManager.getInstance();
      this.tls = new SSLUtil(trust).createSSLSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot read directory.ca-file " + settings.caFile().orElse(null) + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public Optional<DirectoryUser> authenticate(String name, char[] password) {
    if (password.length == 0) {
      // an empty password makes an LDAP simple bind anonymous (RFC 4513 5.1.2): never a login
      return Optional.empty();
    }
    try (LDAPConnection service = serviceConnection()) {
      Optional<Entry> entry = find(service, name);
      if (entry.isEmpty()) {
        remember(name, Optional.empty());
        return Optional.empty();
      }
      try (LDAPConnection own = connect()) {
        BindResult bound = own.bind(entry.get().dn(), new String(password));
        if (!ResultCode.SUCCESS.equals(bound.getResultCode())) {
          return Optional.empty();
        }
      } catch (LDAPException e) {
        if (ResultCode.INVALID_CREDENTIALS.equals(e.getResultCode())) {
          return Optional.empty();
        }
        throw e;
      }
      Optional<DirectoryUser> user = user(service, name, entry.get());
      remember(name, user);
      return user;
    } catch (LDAPException e) {
      log.error(
          "directory {}:{} could not check the login of '{}': {}",
          settings.host(),
          settings.port(),
          name,
          e.getMessage());
      return Optional.empty();
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  @Override
  public Optional<DirectoryUser> lookup(String name) {
    synchronized (looked) {
      Remembered r = looked.get(name);
      if (r != null && clock.instant().isBefore(r.until())) {
        return r.user();
      }
    }
    try (LDAPConnection service = serviceConnection()) {
      Optional<Entry> entry = find(service, name);
      Optional<DirectoryUser> user =
          entry.isEmpty() ? Optional.empty() : user(service, name, entry.get());
      remember(name, user);
      return user;
    } catch (LDAPException e) {
      log.error(
          "directory {}:{} could not look up '{}': {}",
          settings.host(),
          settings.port(),
          name,
          e.getMessage());
      return Optional.empty();
    }
  }

  private void remember(String name, Optional<DirectoryUser> user) {
    if (settings.recheckAfter().isZero()) {
      return;
    }
    synchronized (looked) {
      looked.remove(name);
      looked.put(name, new Remembered(user, clock.instant().plus(settings.recheckAfter())));
    }
  }

  /** The one entry the filter finds for {@code name}; none for no match or several. */
  private Optional<Entry> find(LDAPConnection service, String name) throws LDAPException {
    Filter filter = Filter.create(settings.userFilter().replace("{0}", Filter.encodeValue(name)));
    String[] attributes =
        settings.osAccountAttribute().map(a -> new String[] {a}).orElse(new String[] {"1.1"});
    SearchResult found = service.search(settings.userBase(), SearchScope.SUB, filter, attributes);
    if (found.getEntryCount() != 1) {
      if (found.getEntryCount() > 1) {
        log.warn(
            "directory.user-filter finds {} entries for '{}': refused, it must find one",
            found.getEntryCount(),
            name);
      }
      return Optional.empty();
    }
    SearchResultEntry entry = found.getSearchEntries().get(0);
    return Optional.of(
        new Entry(
            entry.getDN(),
            settings.osAccountAttribute().map(entry::getAttributeValue).filter(v -> !v.isBlank())));
  }

  /** The user's role from their groups; empty when no configured group lets them in. */
  private Optional<DirectoryUser> user(LDAPConnection service, String name, Entry entry)
      throws LDAPException {
    boolean admin =
        settings.adminGroup().isPresent()
            && member(service, settings.adminGroup().get(), entry.dn());
    if (!admin
        && settings.userGroup().isPresent()
        && !member(service, settings.userGroup().get(), entry.dn())) {
      return Optional.empty();
    }
    return Optional.of(
        new DirectoryUser(
            name, admin ? UserAccount.Role.ADMIN : UserAccount.Role.USER, entry.osAccount()));
  }

  private static boolean member(LDAPConnection service, String groupDn, String userDn)
      throws LDAPException {
    SearchResult found =
        service.search(
            groupDn, SearchScope.BASE, Filter.createEqualityFilter("member", userDn), "1.1");
    return found.getEntryCount() == 1;
  }

  /** A TLS connection bound as the service account (anonymous without directory.bind-dn). */
  private LDAPConnection serviceConnection() throws LDAPException {
    LDAPConnection connection = connect();
    try {
      if (settings.bindDn().isPresent()) {
        char[] password = settings.bindPassword().read();
        try {
          connection.bind(settings.bindDn().get(), new String(password));
        } finally {
          Arrays.fill(password, '\0');
        }
      }
      return connection;
    } catch (LDAPException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** A new connection, TLS from its first byte (LDAPS) or from StartTLS on. */
  private LDAPConnection connect() throws LDAPException {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setConnectTimeoutMillis(TIMEOUT_MILLIS);
    options.setResponseTimeoutMillis(TIMEOUT_MILLIS);
    options.setSSLSocketVerifier(new HostNameSSLSocketVerifier(true));
    if (!settings.startTls()) {
      return new LDAPConnection(tls, options, settings.host(), settings.port());
    }
    LDAPConnection connection = new LDAPConnection(options, settings.host(), settings.port());
    try {
      ExtendedResult started =
          connection.processExtendedOperation(new StartTLSExtendedRequest(tls));
      if (!ResultCode.SUCCESS.equals(started.getResultCode())) {
        throw new LDAPException(
            started.getResultCode(), "StartTLS refused: " + started.getDiagnosticMessage());
      }
      return connection;
    } catch (LDAPException e) {
      connection.close();
      throw e;
    }
  }
}
