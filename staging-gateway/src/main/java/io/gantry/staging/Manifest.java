package io.gantry.staging;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;

/** The records of one stage-in or stage-out, in completion order. */
public record Manifest(List<ManifestRecord> records) {
  public Manifest {
    records = List.copyOf(records);
  }

  public long totalRows() {
    return records.stream().mapToLong(r -> Math.max(0, r.rows())).sum();
  }

  public long totalBytes() {
    return records.stream().mapToLong(ManifestRecord::bytes).sum();
  }

  /** A JSON array, one record per line. */
  public String toJson() {
    return records.stream().map(ManifestRecord::toJson).collect(Collectors.joining(",\n ", "[", "]\n"));
  }

  /** Writes {@link #toJson()} to {@code file} under a temporary name, then renames it. */
  public void writeJson(Path file) throws IOException {
    Path temp = file.resolveSibling("." + file.getFileName() + ".part");
    Files.writeString(temp, toJson(), StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
