package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * An application the server runs by name: a job gives {@code jsdl:ApplicationName} (and,
 * optionally, {@code jsdl:ApplicationVersion}) instead of a program.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "Application",
    propOrder = {"name", "version", "kind", "processes", "description"})
public class ApplicationInfo {
  @XmlElement(required = true)
  public String name;

  /** Absent for an application without versions. */
  public String version;

  /** "mpirun" or "posix". */
  @XmlElement(required = true)
  public String kind;

  /** Default process count; a job may ask for another with Resources/TotalCPUCount/Exact. */
  public int processes;

  public String description;
}
