package io.gantry.server.config;

/** A configuration setting is missing or wrong; the message names the setting and the limit. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String setting, String problem) {
    super("setting '" + setting + "': " + problem);
  }
}
