package io.gantry.jsdl;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Environment variable names a job description may not set. The server builds the environment of
 * {@code mpirun} and of POSIX programs itself; a job's {@code Environment} only adds to it. The
 * names below steer the dynamic loader, the C library, Open MPI or its runtime, or the few
 * variables the server fixes, so letting a job set them would let it choose what {@code mpirun}
 * loads or executes (LD_PRELOAD, PATH picking which {@code ssh} it runs), which MCA parameter files
 * it reads (HOME, OMPI_MCA_mca_base_param_files) or how the C library behaves inside the launcher
 * (MALLOC_*, GCONV_PATH). Refused when the job is validated, not silently dropped, so the user
 * learns at once.
 */
public final class ReservedEnvironment {

  /** Prefixes owned by the loader, the C library, Open MPI and its runtime, hwloc, and Gantry. */
  private static final List<String> PREFIXES =
      List.of(
          "LD_", "GLIBC_", "MALLOC_", "OMPI_", "OPAL_", "ORTE_", "PMIX_", "PRTE_", "HWLOC_",
          "GANTRY_");

  /**
   * Names the server sets ({@code PATH}, {@code HOME}, {@code TMPDIR}) and names the C library,
   * resolver or shells read to load code or data from a path of the caller's choosing. Language
   * variables such as PYTHONPATH stay allowed: they steer only the job's own programs, which run
   * under the job's account anyway, not the launcher.
   */
  private static final Set<String> NAMES =
      Set.of(
          "PATH",
          "HOME",
          "TMPDIR",
          "SHELL",
          "ENV",
          "BASH_ENV",
          "GCONV_PATH",
          "LOCPATH",
          "NLSPATH",
          "HOSTALIASES",
          "RESOLV_HOST_CONF",
          "RES_OPTIONS",
          "LOCALDOMAIN",
          "TZDIR",
          "GETCONF_DIR",
          "NIS_PATH");

  /**
   * The reserved names the server itself sets for a job: its id, and where its file systems are.
   */
  private static final java.util.regex.Pattern SET_BY_SERVER =
      java.util.regex.Pattern.compile(
          "GANTRY_JOB_ID|GANTRY_FS_[A-Za-z0-9_]+|GANTRY_FARM_DISPATCHER|GANTRY_FARM_SECRET");

  private ReservedEnvironment() {}

  /**
   * Whether {@code name} is one the server sets for every job ({@code GANTRY_JOB_ID}, {@code
   * GANTRY_FS_NAME}): reserved for jobs, allowed from the server when the launchers check again.
   */
  public static boolean setByServer(String name) {
    return name != null && SET_BY_SERVER.matcher(name).matches();
  }

  /** Why a job may not set {@code name}, or empty when it may. */
  public static Optional<String> problem(String name) {
    if (name == null) {
      return Optional.empty();
    }
    if (NAMES.contains(name)) {
      return Optional.of(
          "environment variable "
              + name
              + " is set by the server (or steers how programs"
              + " are loaded) and a job may not set it");
    }
    for (String prefix : PREFIXES) {
      if (name.startsWith(prefix)) {
        return Optional.of(
            "environment variable "
                + name
                + " is reserved: names starting with "
                + prefix
                + " steer the loader, the C library, Open MPI or Gantry itself; jobs may not set"
                + " them (reserved prefixes: "
                + String.join(", ", PREFIXES)
                + ")");
      }
    }
    return Optional.empty();
  }
}
