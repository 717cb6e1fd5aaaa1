package io.gantry.server.soap;

/**
 * How a test client authenticates: not at all, HTTP Basic, or a WS-Security UsernameToken with the
 * password as text or as a digest.
 */
public sealed interface Login {
  Login ANONYMOUS = new Anonymous();

  record Anonymous() implements Login {}

  record Basic(String user, String password) implements Login {}

  record UsernameToken(String user, String password, boolean digest) implements Login {}

  /** The same kind of login for another user and password. */
  static Login like(Login kind, String user, String password) {
    if (kind instanceof Basic) {
      return new Basic(user, password);
    }
    if (kind instanceof UsernameToken t) {
      return new UsernameToken(user, password, t.digest());
    }
    return kind;
  }
}
