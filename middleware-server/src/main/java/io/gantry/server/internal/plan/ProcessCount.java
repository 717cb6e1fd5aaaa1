package io.gantry.server.internal.plan;

import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.model.core.RangeValueType;
import io.gantry.jsdl.model.core.ResourcesType;
import java.util.List;
import java.util.Optional;

/**
 * The process count of a job from its Resources/TotalCPUCount (GFD.56 6.2.14), whatever form the
 * range takes (Exact, bounded ranges, Range; {@link CpuCountRange}), and the count the job would
 * otherwise get: a named application's default, an SPMD job without NumberOfProcesses, or the
 * NumberOfProcesses an application element gives, which the range must then allow. A range that
 * allows no usable count is a problem naming it; it is never ignored.
 */
public final class ProcessCount {
  /**
   * The most processes one job may ask for, whatever the range says (as the JSDL parser's limit).
   */
  public static final int MAX = 65_536;

  private ProcessCount() {}

  private static Optional<RangeValueType> totalCpuCount(JsdlJob job) {
    ResourcesType resources = job.description().getResources();
    return Optional.ofNullable(resources == null ? null : resources.getTotalCPUCount());
  }

  /**
   * The count to run: {@code preferred} when TotalCPUCount is absent or allows it, else the nearest
   * it allows.
   */
  public static int chosen(JsdlJob job, int preferred, String what, List<String> problems) {
    Optional<RangeValueType> total = totalCpuCount(job);
    if (total.isEmpty()) {
      return preferred;
    }
    CpuCountRange range = new CpuCountRange(total.get());
    Optional<Integer> count = range.choose(preferred, MAX);
    if (count.isEmpty()) {
      problems.add(
          "Resources/TotalCPUCount ("
              + range.describe()
              + ") allows no whole number of processes"
              + " from 1 to "
              + MAX
              + "; "
              + what
              + " would run "
              + preferred);
      return preferred;
    }
    return count.get();
  }

  /**
   * Checks a count fixed elsewhere (NumberOfProcesses, or 1 for a POSIX program) against
   * TotalCPUCount; {@code what} completes "which ...", e.g. "NumberOfProcesses gives".
   */
  public static void check(JsdlJob job, int fixed, String what, List<String> problems) {
    totalCpuCount(job)
        .map(CpuCountRange::new)
        .filter(r -> !r.allows(fixed))
        .ifPresent(
            r ->
                problems.add(
                    "Resources/TotalCPUCount ("
                        + r.describe()
                        + ") does not allow "
                        + fixed
                        + (fixed == 1 ? " process" : " processes")
                        + ", which "
                        + what
                        + "; make them agree or leave"
                        + " TotalCPUCount out"));
  }
}
