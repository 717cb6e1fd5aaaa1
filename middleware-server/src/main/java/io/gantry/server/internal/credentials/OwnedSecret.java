package io.gantry.server.internal.credentials;

/**
 * An encrypted password as a plan carries it to the staging gateway: the job's {@code ENC(...)}
 * value with the job's owner put in front by the planner, so that {@link ServerCredentials} can
 * decrypt it at the moment of use for that owner only (the gateway itself knows no users). The
 * token is opaque to the gateway; NUL separates the parts because neither a user name nor an XML
 * text can hold one.
 */
public record OwnedSecret(String owner, String value) {
  private static final char SEPARATOR = '\0';

  /** The token for {@code value} in a job of {@code owner}. */
  public static String token(String owner, String value) {
    return owner + SEPARATOR + value;
  }

  /** Whether a credential of a plan is such a token (and not the name of an SSH identity). */
  public static boolean isToken(String credential) {
    return credential != null && credential.indexOf(SEPARATOR) >= 0;
  }

  public static OwnedSecret of(String token) {
    int at = token.indexOf(SEPARATOR);
    if (at < 0) {
      throw new IllegalArgumentException("an encrypted password reached staging without its owner");
    }
    return new OwnedSecret(token.substring(0, at), token.substring(at + 1));
  }
}
