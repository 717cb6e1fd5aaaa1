package io.gantry.server.internal.identity;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import io.gantry.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real OpenLDAP slapd (Debian's package), started by a test as a child process on two free
 * loopback ports (ldap:// for StartTLS and ldaps://), with its configuration and database in a
 * temporary directory, TLS from {@link TestCertificates}, and the entries of {@link #ldif()} loaded
 * with slapadd before it starts. Stopped by its process.
 *
 * <p>The directory: users alice, bob, carol and dave, who log in by e-mail address and whose OS
 * account is their posix uid; alice and bob are in gantry-users, carol in gantry-admins, dave in
 * neither; a service account that may read everything but passwords.
 */
final class SlapdDirectory implements AutoCloseable {
  static final String SUFFIX = "dc=gantry,dc=test";
  static final String ROOT_DN = "cn=root," + SUFFIX;
  static final String ROOT_PASSWORD = "root-secret";
  static final String SERVICE_DN = "cn=gantry,ou=services," + SUFFIX;
  static final String SERVICE_PASSWORD = "service-secret";
  static final String PEOPLE = "ou=people," + SUFFIX;
  static final String USERS_GROUP = "cn=gantry-users,ou=groups," + SUFFIX;
  static final String ADMINS_GROUP = "cn=gantry-admins,ou=groups," + SUFFIX;

  /** The filter a site would configure: log in by e-mail, disabled users left out. */
  static final String USER_FILTER =
      "(&(objectClass=inetOrgPerson)(mail={0})(!(employeeType=disabled)))";

  private final Process process;
  private final int ldapPort;
  private final int ldapsPort;

  private SlapdDirectory(Process process, int ldapPort, int ldapsPort) {
    this.process = process;
    this.ldapPort = ldapPort;
    this.ldapsPort = ldapsPort;
  }

  static String password(String user) {
    return user + "-directory-password";
  }

  static String dn(String user) {
    return "uid=" + user + "," + PEOPLE;
  }

  static SlapdDirectory start(Path dir, TestCertificates tls)
      throws IOException, InterruptedException {
    Files.createDirectories(dir.resolve("db"));
    Path conf = dir.resolve("slapd.conf");
    Files.writeString(
        conf,
        String.join(
            "\n",
            "include /etc/ldap/schema/core.schema",
            "include /etc/ldap/schema/cosine.schema",
            "include /etc/ldap/schema/inetorgperson.schema",
            "include /etc/ldap/schema/nis.schema",
            "pidfile " + dir.resolve("slapd.pid"),
            "modulepath /usr/lib/ldap",
            "moduleload back_mdb",
            "TLSCACertificateFile " + tls.caFile(),
            "TLSCertificateFile " + tls.certificateFile(),
            "TLSCertificateKeyFile " + tls.keyFile(),
            "database mdb",
            "maxsize 10485760",
            "suffix \"" + SUFFIX + "\"",
            "rootdn \"" + ROOT_DN + "\"",
            "rootpw " + ROOT_PASSWORD,
            "directory " + dir.resolve("db"),
            "access to attrs=userPassword by anonymous auth by * none",
            "access to * by dn.exact=\"" + SERVICE_DN + "\" read by * none",
            ""));
    Path ldif = dir.resolve("entries.ldif");
    Files.writeString(ldif, ldif());
    run(List.of("slapadd", "-f", conf.toString(), "-l", ldif.toString()));
    int ldap = freePort();
    int ldaps = freePort();
    Process p =
        new ProcessBuilder(
                "slapd",
                "-f",
                conf.toString(),
                "-h",
                "ldap://127.0.0.1:" + ldap + "/ ldaps://127.0.0.1:" + ldaps + "/",
                "-d",
                "0")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("slapd.log").toFile())
            .start();
    SlapdDirectory slapd = new SlapdDirectory(p, ldap, ldaps);
    try {
      Await.until(
          "slapd listening on 127.0.0.1:" + ldaps,
          Duration.ofSeconds(20),
          () -> {
            if (!p.isAlive()) {
              throw new IllegalStateException(
                  "slapd exited: " + Files.readString(dir.resolve("slapd.log")));
            }
            return accepts(ldap) && accepts(ldaps);
          });
    } catch (RuntimeException | Error e) {
      slapd.close();
      throw e;
    }
    return slapd;
  }

  int ldapPort() {
    return ldapPort;
  }

  int ldapsPort() {
    return ldapsPort;
  }

  /** Sets (or with no values removes) {@code attribute} of {@code dn}, as the directory's root. */
  void replace(String dn, String attribute, String... values) throws LDAPException {
    try (LDAPConnection root = new LDAPConnection("127.0.0.1", ldapPort, ROOT_DN, ROOT_PASSWORD)) {
      root.modify(dn, new Modification(ModificationType.REPLACE, attribute, values));
    }
  }

  /** Deletes the entry {@code dn}, as the directory's root. */
  void delete(String dn) throws LDAPException {
    try (LDAPConnection root = new LDAPConnection("127.0.0.1", ldapPort, ROOT_DN, ROOT_PASSWORD)) {
      root.delete(dn);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String ldif() throws IOException, InterruptedException {
    StringBuilder out = new StringBuilder();
    out.append(
        entry(
            "dn: " + SUFFIX,
            "objectClass: dcObject",
            "objectClass: organization",
            "o: Gantry test",
            "dc: gantry"));
    for (String ou : List.of("people", "groups", "services")) {
      out.append(
          entry("dn: ou=" + ou + "," + SUFFIX, "objectClass: organizationalUnit", "ou: " + ou));
    }
    out.append(
        entry(
            "dn: " + SERVICE_DN,
            "objectClass: person",
            "cn: gantry",
            "sn: service",
            "userPassword: " + hashed(SERVICE_PASSWORD)));
    int number = 5000;
    for (String user : List.of("alice", "bob", "carol", "dave")) {
      number++;
      out.append(
          entry(
              "dn: " + dn(user),
              "objectClass: inetOrgPerson",
              "objectClass: posixAccount",
              "uid: " + user,
              "cn: " + user,
              "sn: " + user,
              "mail: " + user + "@gantry.test",
              "uidNumber: " + number,
              "gidNumber: " + number,
              "homeDirectory: /home/" + user,
              "userPassword: " + hashed(password(user))));
    }
    out.append(
        entry(
            "dn: " + USERS_GROUP,
            "objectClass: groupOfNames",
            "cn: gantry-users",
            "member: " + dn("alice"),
            "member: " + dn("bob")));
    out.append(
        entry(
            "dn: " + ADMINS_GROUP,
            "objectClass: groupOfNames",
            "cn: gantry-admins",
            "member: " + dn("carol")));
    return out.toString();
  }

  private static String entry(String... lines) {
    return String.join("\n", lines) + "\n\n";
  }

  /** The password as slapd stores it ({SSHA}), made by slappasswd. */
  private static String hashed(String password) throws IOException, InterruptedException {
    return run(List.of("slappasswd", "-s", password)).strip();
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
