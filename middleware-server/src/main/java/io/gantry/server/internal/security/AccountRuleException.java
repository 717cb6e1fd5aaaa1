package io.gantry.server.internal.security;

/**
 * A user administration request the account rules refuse, with a message that says which rule. The
 * kind decides how each face answers: {@code gantry-server user}'s exit code, the SOAP fault's
 * code.
 */
public final class AccountRuleException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why the request was refused. */
  public enum Kind {
    /** A bad name, a short password, an OS account that cannot run jobs. */
    INVALID("INVALID_ACCOUNT"),
    /** No user of that name. */
    NOT_FOUND("USER_NOT_FOUND"),
    /** The user exists already. */
    EXISTS("USER_EXISTS"),
    /** The change would leave no administrator. */
    LAST_ADMINISTRATOR("LAST_ADMINISTRATOR");

    private final String code;

    Kind(String code) {
      this.code = code;
    }

    /** The stable code of the SOAP fault. */
    public String code() {
      return code;
    }
  }

  private final Kind kind;

  public AccountRuleException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
