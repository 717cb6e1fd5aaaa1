package io.gantry.web;

/**
 * One staging step as the wizard edits it: its kind and its fields as the user typed them (text, so
 * that a wrong entry can be shown back next to its field). Passwords are only ever held here in
 * their encrypted {@code ENC(...)} form. Pages read {@code kind}, {@code values} and {@code errors}
 * by name.
 */
public final class WizardStage extends WizardFields {
  private static final long serialVersionUID = 1L;

  /** The three kinds of staging step, with the element each becomes. */
  public enum Kind {
    SQL_QUERY("SQLQueryDataStaging"),
    SQL_UPDATE("SQLUpdateDataStaging"),
    SCP("SCPDataStaging");

    final String element;

    Kind(String element) {
      this.element = element;
    }
  }

  private final Kind kind;

  public WizardStage(Kind kind) {
    this.kind = kind;
  }

  public String getKind() {
    return kind.name();
  }

  Kind kind() {
    return kind;
  }
}
