package io.gantry.server.internal.service;

/**
 * An operation's argument is out of its range or malformed (a negative offset, a limit outside
 * 1..N, a missing or malformed job id). Not a declared WSDL fault: the SOAP front answers it as a
 * {@code soap:Client} fault whose text names the argument, so any client can tell what to fix.
 */
public final class InvalidArgumentException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String argument;

  public InvalidArgumentException(String argument, String problem) {
    super("argument " + argument + ": " + problem);
    this.argument = argument;
  }

  /** The argument's name as the WSDL spells it, e.g. {@code offset}. */
  public String argument() {
    return argument;
  }
}
