package io.gantry.server.config;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The server's SSH user CA (configuration.md, "Per-user SSH certificates"; docs/security.md, "Jobs
 * on other hosts").
 */
final class SshCaSection {
  private SshCaSection() {}

  /** An IPv4 or IPv6 address with an optional prefix length, as OpenSSH's source-address takes. */
  private static final Pattern CIDR = Pattern.compile("[0-9A-Fa-f.:]+(/[0-9]{1,3})?");

  static final Setting<Boolean> USER_CERTIFICATES =
      Setting.of("compute.user-certificates", SettingType.bool())
          .byDefault("false")
          .means(
              "mpirun-hosts, and slurm with compute.ssh-host: log in as each job's own OS account"
                  + " with a certificate from the server's SSH user CA, instead of mpirun.ssh-user"
                  + " or compute.ssh-user");
  static final Setting<Duration> VALIDITY_MARGIN =
      Setting.of("ssh-ca.validity-margin", SettingType.duration())
          .byDefault("PT15M")
          .means("a job's certificate is valid for its wall time plus this");
  static final Setting<List<String>> SOURCE_ADDRESSES =
      Setting.of("ssh-ca.source-address", SettingType.words())
          .shownDefault("none (any address)")
          .means("addresses or CIDR ranges a job's certificate may be used from (source-address)");

  static ServerConfig.SshCertificates read(SettingValues values) {
    List<String> sources = values.get(SOURCE_ADDRESSES);
    for (String source : sources) {
      if (!CIDR.matcher(source).matches()) {
        throw new ConfigException(
            SOURCE_ADDRESSES.key(), "'" + source + "' is not an address or CIDR range");
      }
    }
    Duration margin = values.get(VALIDITY_MARGIN);
    if (margin.isNegative()) {
      throw new ConfigException(VALIDITY_MARGIN.key(), "must not be negative");
    }
    return new ServerConfig.SshCertificates(values.get(USER_CERTIFICATES), margin, sources);
  }
}
