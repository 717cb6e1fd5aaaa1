package io.gantry.cli;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry encrypt-password}: turns a password into the {@code ENC(RSA-OAEP-256-v2:...)} value
 * a job description carries, encrypted with the server's public key and bound to one Gantry user
 * and one destination (a JDBC URL, or an SSH login user@host:port), so that only that server can
 * read it, and only for that user's jobs sending it there. The password comes from a prompt that
 * does not echo, or from standard input; never from an argument, because arguments are visible to
 * every local user.
 */
@Command(
    name = "encrypt-password",
    mixinStandardHelpOptions = true,
    description = {
      "Encrypt a password for a job description (RemotePassword, DataSource/Password) "
          + "with the server's public key; print the ENC(RSA-OAEP-256-v2:...) value.",
      "The value works only in jobs of the user named by --for-user, and only for the destination named by "
          + "--for-destination: the job's JDBC URL exactly as written in DataSource/JDBCURL, or for a "
          + "RemotePassword the login RemoteUserId@RemoteHostName:RemotePort (port 22 when omitted; the "
          + "host's case does not matter), or for a DataStaging UsernameToken the URI's login "
          + "scheme://user@host:port (https, ftps, scp, sftp; the scheme's port when omitted).",
      "The password is read from a prompt that does not echo, or from the first line of standard "
          + "input when that is not a terminal. It is never taken from the command line.",
      "The key comes from the server (getServerInfo), or from a PEM file (--public-key) "
          + "for writing job descriptions offline."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry encrypt-password --for-user alice --for-destination risk@sftp.bank.example \\",
      "      --fingerprint SHA256:3f:a1:...:9c",
      "  printf '%%s\\n' \"$DB_PASSWORD\" | gantry --quiet encrypt-password --for-user alice \\",
      "      --for-destination 'jdbc:postgresql://db.bank.example:5432/risk'",
      "  gantry encrypt-password --public-key server-password-key.pem --for-user alice --for-destination ...",
      ExitCodes.HELP
    })
final class EncryptPasswordCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Option(
      names = "--fingerprint",
      paramLabel = "SHA256:..",
      description =
          "refuse unless the server's key has this fingerprint (as its operator published it)")
  String expectedFingerprint;

  @Option(
      names = "--for-user",
      required = true,
      paramLabel = "USER",
      description = "the Gantry user whose jobs may use the value (the jobs' owner)")
  String forUser;

  @Option(
      names = "--for-destination",
      required = true,
      paramLabel = "DESTINATION",
      description =
          "where the password may be sent: a JDBC URL exactly as the job writes it, user@host[:port]"
              + " for a RemotePassword, or scheme://user@host[:port] for a DataStaging UsernameToken")
  String forDestination;

  @Option(
      names = "--public-key",
      paramLabel = "FILE",
      description = "encrypt with this PEM public key instead of asking the server")
  Path publicKeyFile;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SecretBinding binding;
    try {
      binding = SecretBinding.of(forUser, forDestination);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, e.getMessage() + "; nothing was encrypted");
    }
    PublicKey key =
        publicKeyFile != null ? readKey(gantry.file(publicKeyFile), publicKeyFile) : serverKey();
    String fingerprint = EncryptedSecret.fingerprint(key);
    if (expectedFingerprint != null && !expectedFingerprint.strip().equalsIgnoreCase(fingerprint)) {
      throw new CommandFailure(
          ExitCodes.SERVER,
          "the password key has fingerprint "
              + fingerprint
              + ", not "
              + expectedFingerprint.strip()
              + "; nothing was encrypted");
    }
    char[] secret = readSecret();
    try {
      String value;
      try {
        value = EncryptedSecret.encrypt(key, secret, binding);
      } catch (IllegalArgumentException e) {
        // RSA-OAEP-SHA-256 holds at most (key bytes - 66) bytes: 318 for a 3072-bit key
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO,
            "the password is too long to encrypt with this key; use a named data source or SSH identity");
      }
      if (gantry.json) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("value", value);
        json.put("keyFingerprint", fingerprint);
        json.put("user", binding.user());
        json.put("destination", binding.destination());
        JsonOutput.print(out, json);
      } else {
        out.println(value);
        if (!gantry.quiet) {
          err.println(
              "encrypted for the key "
                  + fingerprint
                  + ", for jobs of user "
                  + binding.user()
                  + " sending it to "
                  + binding.destination());
        }
      }
    } finally {
      Arrays.fill(secret, '\0');
    }
    out.flush();
    err.flush();
    return ExitCodes.OK;
  }

  private PublicKey serverKey() {
    String pem = gantry.connect().call(s -> s.getServerInfo()).getPasswordPublicKey();
    if (pem == null || pem.isBlank()) {
      throw new CommandFailure(
          ExitCodes.NEGATIVE,
          "the server publishes no password key; use named data sources and SSH identities instead");
    }
    return parseKey(pem, "the server's password key");
  }

  private static PublicKey readKey(Path file, Path named) {
    try {
      return parseKey(Files.readString(file, StandardCharsets.US_ASCII), named.toString());
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "cannot read " + named + ": " + e.getMessage());
    }
  }

  private static PublicKey parseKey(String pem, String what) {
    try {
      return EncryptedSecret.publicKeyFromPem(pem);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, what + " is not an RSA public key in PEM form");
    }
  }

  private static char[] readSecret() {
    Console console = System.console();
    char[] secret;
    if (console != null) {
      secret = console.readPassword("Password to encrypt: ");
      char[] again = console.readPassword("Again: ");
      boolean same = secret != null && again != null && Arrays.equals(secret, again);
      if (again != null) {
        Arrays.fill(again, '\0');
      }
      if (!same) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO, "the two entries differ; nothing was encrypted");
      }
    } else {
      secret = firstLineOfStandardInput();
    }
    if (secret == null || secret.length == 0) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, "no password given on standard input");
    }
    return secret;
  }

  /** The first line of standard input, without its line break, read without a String copy. */
  static char[] firstLineOfStandardInput() {
    try {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      char[] buffer = new char[4096];
      int length = 0;
      for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
        if (length == buffer.length) {
          throw new CommandFailure(
              ExitCodes.USAGE_OR_IO, "the password is longer than 4096 characters");
        }
        buffer[length++] = (char) c;
      }
      if (length > 0 && buffer[length - 1] == '\r') {
        length--;
      }
      char[] secret = Arrays.copyOf(buffer, length);
      Arrays.fill(buffer, '\0');
      return secret;
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "cannot read standard input: " + e.getMessage());
    }
  }
}
