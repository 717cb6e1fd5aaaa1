package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * No setting is read and ignored (issue 17: mpirun.hostfile and staging.sql-threads were): each
 * setting of {@link Settings}, set to a valid value other than its default, changes the loaded
 * {@link ServerConfig}, and every part of ServerConfig is read by the server's code.
 *
 * <p>A new setting gets its example value from its type; one that needs a particular value, or
 * other settings beside it, gets an entry in {@link #EXAMPLES} or {@link #COMPANIONS}.
 */
class SettingsWiringTest {
  /**
   * Values for settings whose type alone does not give a valid one that differs from the default.
   */
  private static final Map<String, String> EXAMPLES =
      Map.ofEntries(
          Map.entry("listen.host", "localhost"),
          Map.entry("ops.listen-host", "localhost"), // loopback only
          Map.entry("store.url", "jdbc:h2:mem:example"),
          Map.entry("slots.total", "997"), // the default is the number of cores
          Map.entry("auth.token-lifetime", "PT2H"), // at least a minute
          Map.entry("compute.backend", "slurm"),
          Map.entry("compute.root", "/scratch/other"),
          Map.entry("staging.file-roots", "/srv/example-share"),
          Map.entry("jobs.allowed-executable-roots", "/opt/example-programs"),
          Map.entry("staging.sql-functions", "fx_rate"),
          Map.entry("datasource.NAME.url", "jdbc:h2:mem:example"),
          Map.entry("application.ID.kind", "mpirun"),
          Map.entry("directory.url", "ldaps://other-ldap.example"),
          Map.entry("directory.user-base", "ou=staff,dc=example"),
          Map.entry("directory.user-filter", "(&(objectClass=person)(mail={0}))"),
          Map.entry("directory.os-account-attribute", "sAMAccountName"),
          Map.entry("directory.recheck-after", "PT10S"), // at most PT30S
          Map.entry("oidc.issuer", "https://other-idp.example"),
          Map.entry("oidc.audience", "other-api"),
          Map.entry("ssh-ca.source-address", "10.1.0.0/16"),
          Map.entry("queue.classes", "urgent normal batch"),
          Map.entry("queue.default", "batch"),
          Map.entry("server.public-url", "https://gantry.bank.example/risk/"),
          Map.entry("log.format", "json"),
          Map.entry("log.console", "json"));

  /** Settings that are valid only beside others (the baseline has these too). */
  private static final Map<String, Map<String, String>> COMPANIONS =
      Map.ofEntries(
          Map.entry(
              "tls.keystore", Map.of("tls.keystore-password-file", "/etc/example/tls.password")),
          Map.entry(
              "staging.trust-store",
              Map.of("staging.trust-store-password-file", "/etc/example/trust.password")),
          Map.entry("datasource.", Map.of("datasource.x.url", "jdbc:h2:mem:x")),
          Map.entry(
              "datasource.NAME.read-password",
              Map.of("datasource.x.url", "jdbc:h2:mem:x", "datasource.x.read-user", "reader")),
          Map.entry("identity.", Map.of("identity.x.key-file", "/etc/example/id_ed25519")),
          Map.entry(
              "filesystem.", Map.of("filesystem.x.path", System.getProperty("java.io.tmpdir"))),
          Map.entry("application.", Map.of("application.x.executable", "/bin/true")),
          Map.entry("compute.ssh-", cluster()),
          Map.entry("queue.", Map.of("queue.classes", "urgent normal batch x")),
          Map.entry("notify.smtp-host", Map.of("notify.mail-from", "gantry@example.org")),
          Map.entry(
              "notify.smtp-user",
              Map.of("notify.smtp-password-file", "/etc/example/smtp.password")),
          Map.entry("compute.root", cluster()),
          Map.entry("calendar.NAME.data-source", queryCalendar()),
          Map.entry("calendar.NAME.query", queryCalendar()),
          Map.entry("calendar.NAME.refresh", Map.of("calendar.x.file", "/etc/example/x.dates")),
          Map.entry("directory.", directory("ldaps://ldap.example")),
          Map.entry("directory.bind-", directoryWith("directory.bind-password-file")),
          Map.entry("directory.bind-password-env", directoryWith("directory.bind-password-env")),
          Map.entry(
              "oidc.", Map.of("oidc.issuer", "https://idp.example", "oidc.audience", "gantry")),
          Map.entry("log.", Map.of("log.file", "/var/log/example/gantry.log")), // file settings
          Map.entry(
              "application.ID.processes",
              Map.of("application.x.executable", "/bin/true", "application.x.kind", "mpirun")));

  /**
   * Settings that must be there when their companion is: the baseline keeps the companion's value
   * and the change replaces it.
   */
  private static final Set<String> REQUIRED_BESIDE =
      Set.of(
          "compute.ssh-user",
          "compute.ssh-identity",
          "compute.root",
          "directory.url",
          "directory.user-base",
          "directory.bind-dn",
          "directory.bind-password-file",
          "directory.bind-password-env",
          "oidc.issuer",
          "oidc.audience",
          "calendar.x.data-source",
          "calendar.x.query");

  /** A holiday calendar read by a query needs its data source and query together. */
  private static Map<String, String> queryCalendar() {
    return Map.of(
        "calendar.x.data-source", "market", "calendar.x.query", "SELECT holiday FROM holidays");
  }

  /** Directory logins need the directory's URL and the users' base DN beside them. */
  private static Map<String, String> directory(String url) {
    return Map.of("directory.url", url, "directory.user-base", "ou=people,dc=example");
  }

  /** A service account's name and password go together. */
  private static Map<String, String> directoryWith(String passwordSetting) {
    Map<String, String> settings = new HashMap<>(directory("ldaps://ldap.example"));
    settings.put("directory.bind-dn", "cn=gantry,dc=example");
    settings.put(passwordSetting, "/etc/example/ldap.pw");
    return settings;
  }

  /** A cluster over SSH needs its account, identity, root and the slurm backend beside it. */
  private static Map<String, String> cluster() {
    return Map.of(
        "compute.backend", "slurm",
        "compute.ssh-host", "login.cluster.example",
        "compute.ssh-user", "gantry",
        "compute.ssh-identity", "cluster",
        "compute.root", "/scratch/gantry");
  }

  @TempDir Path dir;

  @TestFactory
  Stream<DynamicTest> everySettingChangesTheLoadedConfiguration() {
    return Settings.all().stream()
        .map(
            setting ->
                DynamicTest.dynamicTest(
                    setting.key(),
                    () -> {
                      String key = setting.keyFor("x");
                      Map<String, String> baseline = new HashMap<>(companions(setting.key()));
                      if (!REQUIRED_BESIDE.contains(key)) {
                        baseline.remove(key);
                      }
                      Map<String, String> changed = new HashMap<>(baseline);
                      changed.put(key, example(setting));
                      assertNotEquals(
                          load(baseline),
                          load(changed),
                          key
                              + "="
                              + changed.get(key)
                              + " loads the same ServerConfig as without it: the setting is read and ignored");
                    }));
  }

  @Test
  void everyPartOfTheConfigurationIsReadByTheServer() throws Exception {
    Path classes =
        Path.of(ServerConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> called = new TreeSet<>();
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        if (!file.getFileName().toString().startsWith("ServerConfig")) {
          called.addAll(methodsCalled(file));
        }
      }
    }
    Set<String> unread = new TreeSet<>();
    for (Class<?> type : configurationRecords()) {
      for (RecordComponent component : type.getRecordComponents()) {
        String accessor = type.getName().replace('.', '/') + "." + component.getName();
        if (!called.contains(accessor)) {
          unread.add(type.getSimpleName() + "." + component.getName() + "()");
        }
      }
    }
    assertEquals(Set.of(), unread, "parts of ServerConfig that no class of the server reads");
  }

  private static List<Class<?>> configurationRecords() {
    List<Class<?>> records = new java.util.ArrayList<>(List.of(ServerConfig.class));
    for (Class<?> nested : ServerConfig.class.getDeclaredClasses()) {
      if (nested.isRecord()) {
        records.add(nested);
      }
    }
    return records;
  }

  private ServerConfig load(Map<String, String> settings) {
    return new ServerConfigLoader().load(null, settings);
  }

  private static Map<String, String> companions(String key) {
    return COMPANIONS.entrySet().stream()
        .filter(e -> key.startsWith(e.getKey()))
        .max(java.util.Comparator.comparingInt(e -> e.getKey().length()))
        .map(Map.Entry::getValue)
        .orElse(Map.of());
  }

  /** A valid value of {@code setting} other than its default. */
  private String example(Setting<?> setting) throws IOException {
    String given = EXAMPLES.get(setting.key());
    if (given != null) {
      return given;
    }
    String syntax = setting.type().syntax();
    String fixed = setting.defaultValue().orElse(null);
    if (syntax.equals("true|false")) {
      return fixed != null && (Boolean) setting.type().read(setting.key(), fixed)
          ? "false"
          : "true";
    }
    if (syntax.matches("\\d+\\.\\.\\d+")) {
      int min = Integer.parseInt(syntax.substring(0, syntax.indexOf('.')));
      int max = Integer.parseInt(syntax.substring(syntax.lastIndexOf('.') + 1));
      int value = fixed == null ? min + 1 : Integer.parseInt(fixed) + 1;
      return Integer.toString(value > max ? min : value);
    }
    return switch (syntax) {
      case "duration" ->
          fixed == null
              ? "PT1H"
              : Long.toString(
                  ((Duration) setting.type().read(setting.key(), fixed)).toSeconds() + 1);
      case "bytes" ->
          fixed == null
              ? "1M"
              : Long.toString((Long) setting.type().read(setting.key(), fixed) + 1024);
      case "path" -> Files.createDirectories(dir.resolve("example")).toString();
      case "list", "arguments" -> "example-a example-b";
      default -> "example";
    };
  }

  /** "owner.name" of every method a class file calls (its constant pool's method references). */
  private static Set<String> methodsCalled(Path classFile) throws IOException {
    Set<String> called = new TreeSet<>();
    try (InputStream in = Files.newInputStream(classFile);
        DataInputStream data = new DataInputStream(in)) {
      data.readInt(); // magic
      data.readUnsignedShort(); // minor
      data.readUnsignedShort(); // major
      int count = data.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] first = new int[count];
      int[] second = new int[count];
      int[] tags = new int[count];
      for (int i = 1; i < count; i++) {
        int tag = data.readUnsignedByte();
        tags[i] = tag;
        switch (tag) {
          case 1 -> utf8[i] = data.readUTF();
          case 3, 4 -> data.readInt();
          case 5, 6 -> {
            data.readLong();
            i++; // takes two entries
          }
          case 7, 8, 16, 19, 20 -> first[i] = data.readUnsignedShort();
          case 9, 10, 11, 12, 17, 18 -> {
            first[i] = data.readUnsignedShort();
            second[i] = data.readUnsignedShort();
          }
          case 15 -> {
            data.readUnsignedByte();
            first[i] = data.readUnsignedShort();
          }
          default -> throw new IOException(classFile + ": constant pool tag " + tag);
        }
      }
      for (int i = 1; i < count; i++) {
        if (tags[i] == 10) {
          String owner = utf8[first[first[i]]];
          String name = utf8[first[second[i]]];
          called.add(owner + "." + name);
        }
      }
    }
    return called;
  }
}
