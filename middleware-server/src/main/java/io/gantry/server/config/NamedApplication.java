package io.gantry.server.config;

import java.util.List;
import java.util.Set;

/**
 * An application the server offers by name, as UNICORE's application registry does: a job says
 * {@code <jsdl:ApplicationName>mcvar</jsdl:ApplicationName>} (and perhaps a version) and the server
 * runs the program configured here, with these arguments, on this many processes. Jobs of such
 * applications name no executable, so the operator decides what runs.
 *
 * @param id the configuration key's middle part ({@code application.ID.*})
 * @param name the ApplicationName jobs use (defaults to the id)
 * @param version the ApplicationVersion, or "" when the application has none
 * @param kind how it is started
 * @param executable absolute path, or a name looked up on the server's PATH
 * @param arguments given to the program before nothing else: jobs cannot add any
 * @param processes default process count (mpirun); a job may ask for another through
 *     Resources/TotalCPUCount/Exact
 * @param allowedUsers who may run it; empty allows every user
 * @param description one line for listings, or ""
 */
public record NamedApplication(
    String id,
    String name,
    String version,
    Kind kind,
    String executable,
    List<String> arguments,
    int processes,
    Set<String> allowedUsers,
    String description) {

  /** How the program is started. */
  public enum Kind {
    /** Through mpirun, on {@code processes} ranks. */
    MPIRUN,
    /** As one POSIX process. */
    POSIX
  }

  public NamedApplication {
    arguments = List.copyOf(arguments);
    allowedUsers = Set.copyOf(allowedUsers);
  }

  /** Whether {@code userName} may run it; an empty set allows every user. */
  public boolean allows(String userName) {
    return allowedUsers.isEmpty() || allowedUsers.contains(userName);
  }

  /** "mcvar 1.0", or the bare name of an unversioned application. */
  public String label() {
    return version.isEmpty() ? name : name + " " + version;
  }
}
