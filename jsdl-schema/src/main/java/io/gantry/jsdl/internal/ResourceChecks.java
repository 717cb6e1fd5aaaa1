package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.JSDL;

import java.util.Map;
import org.w3c.dom.Element;

/**
 * Resources a JSDL document asks for that Gantry does not provide are warnings at the element,
 * never silently dropped: the job is valid JSDL and runs, and its author learns which requests had
 * no effect. What Gantry does act on is left alone here: TotalCPUCount (the process count, checked
 * by the server against the application), FileSystem (the operator's named directories), and, on
 * the slurm backend, IndividualPhysicalMemory and ExclusiveExecution.
 */
final class ResourceChecks {
  /** Why each element has no effect, as the second half of the warning. */
  private static final Map<String, String> UNUSED =
      Map.ofEntries(
          Map.entry("CandidateHosts", "the compute backend chooses the hosts"),
          Map.entry("OperatingSystem", "jobs run on the server's own operating system"),
          Map.entry("CPUArchitecture", "jobs run on the server's own CPU architecture"),
          Map.entry("IndividualCPUSpeed", "no compute backend selects hosts by CPU speed"),
          Map.entry(
              "IndividualCPUTime",
              "only the wall time is limited, by WallTimeLimit or limits.wall-time"),
          Map.entry(
              "TotalCPUTime",
              "only the wall time is limited, by WallTimeLimit or limits.wall-time"),
          Map.entry(
              "IndividualCPUCount",
              "each process takes one compute slot; TotalCPUCount sets the count"),
          Map.entry("IndividualNetworkBandwidth", "no compute backend reserves network bandwidth"),
          Map.entry("IndividualVirtualMemory", "no compute backend limits virtual memory"),
          Map.entry("TotalVirtualMemory", "no compute backend limits virtual memory"),
          Map.entry(
              "TotalPhysicalMemory", "only IndividualPhysicalMemory is, by compute.backend=slurm"),
          Map.entry(
              "IndividualDiskSpace",
              "the job directory's space is limited by limits.job-staged-bytes"
                  + " and limits.job-output-bytes"),
          Map.entry(
              "TotalDiskSpace",
              "the job directory's space is limited by limits.job-staged-bytes"
                  + " and limits.job-output-bytes"),
          Map.entry("TotalResourceCount", "a job runs on the hosts its compute backend gives it"));

  private static final Map<String, String> SLURM_ONLY =
      Map.of(
          "IndividualPhysicalMemory", "sbatch --mem", "ExclusiveExecution", "sbatch --exclusive");

  private final Findings findings;

  ResourceChecks(Findings findings) {
    this.findings = findings;
  }

  void check(Element root) {
    Element resources = Dom.child(Dom.child(root, JSDL, "JobDescription"), JSDL, "Resources");
    if (resources == null) {
      return;
    }
    for (Element e : Dom.children(resources)) {
      if (!JSDL.equals(e.getNamespaceURI())) {
        continue; // foreign elements get their own warning
      }
      String name = e.getLocalName();
      if (UNUSED.containsKey(name)) {
        findings.warning(
            e, name + " is not used by Gantry: " + UNUSED.get(name) + "; the job runs without it");
      } else if (SLURM_ONLY.containsKey(name)) {
        findings.warning(
            e,
            name
                + " is used only by compute.backend=slurm ("
                + SLURM_ONLY.get(name)
                + "); other backends run the job without it");
      } else if (name.equals("FileSystem")) {
        fileSystem(e);
      }
    }
  }

  private void fileSystem(Element fs) {
    for (String part : new String[] {"DiskSpace", "FileSystemType"}) {
      Element e = Dom.child(fs, JSDL, part);
      if (e != null) {
        findings.warning(
            e,
            part
                + " is not used by Gantry: file system "
                + fs.getAttribute("name")
                + " is the directory the server configures for it");
      }
    }
  }
}
