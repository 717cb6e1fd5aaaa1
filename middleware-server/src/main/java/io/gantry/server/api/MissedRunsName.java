package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlEnum;
import jakarta.xml.bind.annotation.XmlType;

/**
 * What a schedule does at the server's start with the times it missed while the server was down:
 * submit one job, for the latest of them, or none.
 */
@XmlType(name = "MissedRuns")
@XmlEnum
public enum MissedRunsName {
  RUN_ONCE,
  SKIP
}
