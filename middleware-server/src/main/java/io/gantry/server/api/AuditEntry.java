package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;

/**
 * One entry of a job's audit trail: a change of state (who submitted, cancelled or killed the job
 * is in its text), or a data movement with its source, target, rows, bytes and checksum.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "AuditEntry",
    propOrder = {"at", "kind", "fromState", "toState", "text", "movement"})
public class AuditEntry {
  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant at;

  /** STATE_CHANGE or DATA_MOVEMENT. */
  @XmlElement(required = true)
  public String kind;

  /** For a state change: the state left; absent for the submission. */
  public JobStateName fromState;

  /** For a state change: the state entered. */
  public JobStateName toState;

  /** What happened, e.g. "submitted by alice", "stage-in: sql-extract 2000 rows". */
  @XmlElement(required = true)
  public String text;

  /** For a data movement: the file moved. */
  public StagedFileInfo movement;
}
