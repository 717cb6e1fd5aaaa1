package io.gantry.staging;

import java.util.List;

/** The records of one stage-in or stage-out, in completion order. */
public record Manifest(List<ManifestRecord> records) {
  public Manifest {
    records = List.copyOf(records);
  }
}
