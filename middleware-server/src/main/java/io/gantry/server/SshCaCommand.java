package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.internal.sshca.UserCertificateAuthority;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server ssh-ca}: the server's SSH user certificate authority (docs/security.md,
 * "Jobs on other hosts").
 */
@Command(
    name = "ssh-ca",
    mixinStandardHelpOptions = true,
    description = "The server's SSH user certificate authority (docs/security.md).",
    subcommands = {SshCaCommand.PublicKey.class})
final class SshCaCommand {
  @ParentCommand GantryServerCommand server;

  /**
   * {@code gantry-server ssh-ca public-key}: prints the CA's public key (making the CA at first
   * use, as the server's start does), the line an operator puts in the file that sshd's {@code
   * TrustedUserCAKeys} names on every host that jobs reach.
   */
  @Command(
      name = "public-key",
      mixinStandardHelpOptions = true,
      description = "Print the CA's public key line for sshd's TrustedUserCAKeys file.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {"0:printed", "1:the CA key could not be read or made", "2:bad configuration"})
  static final class PublicKey implements Callable<Integer> {
    @ParentCommand SshCaCommand parent;
    @Mixin ConfigurationOptions configuration;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      ConfigurationOptions outer =
          parent == null || parent.server == null ? null : parent.server.configuration;
      try {
        UserCertificateAuthority ca =
            UserCertificateAuthority.loadOrCreate(
                configuration.orElse(outer).load(Map.of()).dataDirectory().resolve("keys"));
        out.println(ca.publicKeyLine());
        out.flush();
        return 0;
      } catch (ConfigException e) {
        err.println("gantry-server ssh-ca public-key: " + e.getMessage());
        err.flush();
        return 2;
      } catch (Exception e) {
        err.println("gantry-server ssh-ca public-key: " + e.getMessage());
        err.flush();
        return 1;
      }
    }
  }
}
