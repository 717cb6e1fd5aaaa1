package io.gantry.server.internal.jobstore;

import java.util.Locale;
import java.util.Objects;

/**
 * One job another job waits for, and how: Slurm's {@code afterok} ({@link Kind#AFTER}: it must end
 * SUCCEEDED), {@code afterany} ({@link Kind#AFTER_ANY}: it must end, whatever the outcome) or
 * {@code after} ({@link Kind#AFTER_START}: its program must have started, for a job that streams
 * its files).
 */
public record JobDependency(JobId on, Kind kind) {

  /** The two kinds, named as in a Slurm user's {@code Dependency(after:ID)} reason. */
  public enum Kind {
    AFTER("after"),
    AFTER_ANY("afterany"),
    AFTER_START("afterstart");

    private final String word;

    Kind(String word) {
      this.word = word;
    }

    /** The word stored and shown: {@code after}, {@code afterany} or {@code afterstart}. */
    public String word() {
      return word;
    }

    static Kind of(String word) {
      for (Kind k : values()) {
        if (k.word.equals(word.toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      throw new IllegalArgumentException("not a dependency kind: " + word);
    }
  }

  public JobDependency {
    Objects.requireNonNull(on, "on");
    Objects.requireNonNull(kind, "kind");
  }

  /** {@code after:ID}, {@code afterany:ID} or {@code afterstart:ID}. */
  @Override
  public String toString() {
    return kind.word() + ":" + on;
  }
}
