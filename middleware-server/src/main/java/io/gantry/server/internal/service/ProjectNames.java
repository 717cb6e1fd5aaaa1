package io.gantry.server.internal.service;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A job's project (JSDL JobIdentification/JobProject, GFD.56 section 6.1.4): at most one, named so
 * that the quota settings ({@code quota.project.PROJECT.*}) and the accounting report's CSV can
 * carry it as it is.
 */
final class ProjectNames {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private ProjectNames() {}

  /** Why the projects are refused, or empty when there is at most one, well named. */
  static Optional<String> problem(List<String> projects) {
    if (projects.size() > 1) {
      return Optional.of(
          "the job names " + projects.size() + " projects (JobProject); a job is charged to one");
    }
    if (projects.size() == 1 && !NAME.matcher(projects.get(0).strip()).matches()) {
      return Optional.of(
          "JobProject '"
              + projects.get(0)
              + "' is no project name: 1 to 64 letters, digits, '.', '_' or '-', starting with a"
              + " letter or digit");
    }
    return Optional.empty();
  }
}
