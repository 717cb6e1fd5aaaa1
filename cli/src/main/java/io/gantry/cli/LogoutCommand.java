package io.gantry.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry logout}: revokes the session token {@code gantry login} stored (on the server, so
 * that a copy of it is worthless too) and removes it from the login file. Server, user name and
 * fingerprint stay as defaults. The token is removed locally even when the server cannot be
 * reached; then the command says so and exits 3, as the token stays valid there until it expires.
 */
@Command(
    name = "logout",
    mixinStandardHelpOptions = true,
    description = {
      "Revoke the session token gantry login stored, on the server, and remove it from the"
          + " login file; later commands ask for the password again (or gantry login anew)."
    },
    footerHeading = "%nExamples:%n",
    footer = {"  gantry logout", ExitCodes.HELP})
final class LogoutCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ServerSettings settings = gantry.settings();
    Optional<StoredLogin> stored = gantry.storedLoginFor(settings).filter(l -> l.token() != null);
    if (stored.isEmpty()) {
      if (!gantry.quiet) {
        out.println("no session token stored for " + settings.user() + " at " + settings.server());
      }
      out.flush();
      return ExitCodes.OK;
    }
    StoredLogin login = stored.get();
    // first forget it here: a token that cannot be revoked there must not stay in use here
    gantry.loginFile().write(login.withoutToken());
    try {
      gantry
          .connect(settings, Credential.token(login.token()))
          .call(s -> s.revokeSessionToken(login.tokenId()));
    } catch (CommandFailure e) {
      if (e.getMessage().contains("no longer accepts your session")) {
        // expired or revoked already: nothing left to end
        report(out, login, "it had ended already");
        return ExitCodes.OK;
      }
      throw new CommandFailure(
          e.exitCode(),
          e.getMessage()
              + "; the session token was removed from "
              + gantry.loginFile().path()
              + " but stays valid on the server until it expires (gantry session revoke "
              + login.tokenId()
              + " ends it)",
          e);
    }
    report(out, login, "revoked");
    return ExitCodes.OK;
  }

  private void report(PrintWriter out, StoredLogin login, String what) {
    if (!gantry.quiet && !gantry.json) {
      out.println(
          "logged out of "
              + login.server()
              + " as "
              + login.user()
              + ": session "
              + login.tokenId()
              + " "
              + what);
    }
    out.flush();
  }
}
