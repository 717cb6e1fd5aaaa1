package io.gantry.server.internal.identity;

import static io.gantry.server.internal.identity.SlapdDirectory.password;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount.Role;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.security.Directory.DirectoryUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directory logins against a real OpenLDAP slapd over LDAPS and StartTLS: the password checked by a
 * bind, the role from groups, the OS account from an attribute, refusals for everything else, and a
 * user disabled in the directory refused once directory.recheck-after has passed.
 */
class LdapDirectoryTest {
  @TempDir static Path dir;
  private static TestCertificates tls;
  private static SlapdDirectory slapd;

  @BeforeAll
  static void startDirectory() throws Exception {
    tls = TestCertificates.make(dir.resolve("tls"));
    slapd = SlapdDirectory.start(dir.resolve("slapd"), tls);
  }

  @AfterAll
  static void stopDirectory() {
    if (slapd != null) {
      slapd.close();
    }
  }

  static ServerConfig.Directory settings(
      int port, boolean startTls, Path caFile, Duration recheckAfter) throws Exception {
    Path passwordFile = dir.resolve("service.password");
    Files.writeString(passwordFile, SlapdDirectory.SERVICE_PASSWORD + "\n");
    return new ServerConfig.Directory(
        "127.0.0.1",
        port,
        startTls,
        Optional.of(caFile),
        Optional.of(SlapdDirectory.SERVICE_DN),
        new PasswordSource.FromFile(passwordFile),
        SlapdDirectory.PEOPLE,
        SlapdDirectory.USER_FILTER,
        Optional.of(SlapdDirectory.USERS_GROUP),
        Optional.of(SlapdDirectory.ADMINS_GROUP),
        Optional.of("uid"),
        recheckAfter);
  }

  private static LdapDirectory ldaps(Clock clock) throws Exception {
    return new LdapDirectory(
        settings(slapd.ldapsPort(), false, tls.caFile(), Duration.ofSeconds(5)), clock);
  }

  @Test
  void aDirectoryPasswordLogsInWithTheRoleOfTheGroupsAndTheOsAccountOfTheAttribute()
      throws Exception {
    LdapDirectory directory = ldaps(Clock.systemUTC());
    assertEquals(
        Optional.of(new DirectoryUser("alice@gantry.test", Role.USER, Optional.of("alice"))),
        directory.authenticate("alice@gantry.test", password("alice").toCharArray()));
    assertEquals(
        Optional.of(new DirectoryUser("carol@gantry.test", Role.ADMIN, Optional.of("carol"))),
        directory.authenticate("carol@gantry.test", password("carol").toCharArray()));
    // over StartTLS on the plain port too
    LdapDirectory startTls =
        new LdapDirectory(
            settings(slapd.ldapPort(), true, tls.caFile(), Duration.ZERO), Clock.systemUTC());
    assertEquals(
        Role.USER,
        startTls
            .authenticate("alice@gantry.test", password("alice").toCharArray())
            .orElseThrow()
            .role());
  }

  @Test
  void wrongEmptyUnknownInjectedAndUngroupedLoginsAreRefused() throws Exception {
    LdapDirectory directory = ldaps(Clock.systemUTC());
    assertEquals(
        Optional.empty(), directory.authenticate("alice@gantry.test", "wrong".toCharArray()));
    // an empty password would be an anonymous bind, which slapd accepts (RFC 4513 5.1.2)
    assertEquals(Optional.empty(), directory.authenticate("alice@gantry.test", new char[0]));
    assertEquals(Optional.empty(), directory.authenticate("nobody@gantry.test", "x".toCharArray()));
    // a filter made of the name would match every user; the name is escaped, so it matches none
    assertEquals(Optional.empty(), directory.authenticate("*", password("alice").toCharArray()));
    assertEquals(
        Optional.empty(),
        directory.authenticate("alice@gantry.test)(mail=*", password("alice").toCharArray()));
    // dave's password is right, but he is in neither group
    assertEquals(
        Optional.empty(),
        directory.authenticate("dave@gantry.test", password("dave").toCharArray()));
    assertEquals(Optional.empty(), directory.lookup("dave@gantry.test"));
  }

  @Test
  void aDirectoryWhoseCertificateIsNotTrustedIsRefused() throws Exception {
    TestCertificates other = TestCertificates.make(dir.resolve("other-ca"));
    LdapDirectory untrusting =
        new LdapDirectory(
            settings(slapd.ldapsPort(), false, other.caFile(), Duration.ZERO), Clock.systemUTC());
    assertEquals(
        Optional.empty(),
        untrusting.authenticate("alice@gantry.test", password("alice").toCharArray()));
    assertEquals(Optional.empty(), untrusting.lookup("alice@gantry.test"));
  }

  @Test
  void aUserDisabledOrRemovedFromTheGroupIsRefusedOnceTheRecheckTimeHasPassed() throws Exception {
    MovableClock clock = new MovableClock();
    LdapDirectory directory = ldaps(clock);
    assertTrue(directory.lookup("bob@gantry.test").isPresent());

    slapd.replace(SlapdDirectory.dn("bob"), "employeeType", "disabled");
    // a password is always checked by the directory: refused at once
    assertEquals(
        Optional.empty(), directory.authenticate("bob@gantry.test", password("bob").toCharArray()));
    // a lookup (a token's call) answers from what the refused login just read
    assertEquals(Optional.empty(), directory.lookup("bob@gantry.test"));

    slapd.replace(SlapdDirectory.dn("bob"), "employeeType");
    assertTrue(directory.lookup("bob@gantry.test").isEmpty(), "still remembered as refused");
    clock.advance(Duration.ofSeconds(5));
    assertTrue(directory.lookup("bob@gantry.test").isPresent(), "asked again after 5 s");

    slapd.replace(SlapdDirectory.USERS_GROUP, "member", SlapdDirectory.dn("alice"));
    assertTrue(directory.lookup("bob@gantry.test").isPresent(), "remembered for 5 s");
    clock.advance(Duration.ofSeconds(5));
    assertEquals(Optional.empty(), directory.lookup("bob@gantry.test"), "out of gantry-users");
    slapd.replace(
        SlapdDirectory.USERS_GROUP, "member", SlapdDirectory.dn("alice"), SlapdDirectory.dn("bob"));
  }

  /** A clock the test moves instead of waiting. */
  static final class MovableClock extends Clock {
    private volatile Instant now = Instant.parse("2026-11-27T08:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
