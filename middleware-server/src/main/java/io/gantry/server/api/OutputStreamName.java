package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlEnum;
import jakarta.xml.bind.annotation.XmlType;

/** Which of a job's output streams to read. */
@XmlType(name = "OutputStream")
@XmlEnum
public enum OutputStreamName {
  STDOUT,
  STDERR
}
