package io.gantry.server.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * "Did you mean": the known name nearest to a misspelt one, by Levenshtein edit distance (V. I.
 * Levenshtein, "Binary codes capable of correcting deletions, insertions, and reversals", 1966: the
 * fewest single-character insertions, deletions and substitutions turning one into the other),
 * allowing at most a quarter of the given name's characters, and at least two, edited away. The one
 * owner of the suggestion for configuration keys, data sources and applications alike.
 */
public final class NearestName {
  private NearestName() {}

  /** The name of {@code known} nearest to {@code given}, if one is near enough; never itself. */
  public static Optional<String> among(String given, Collection<String> known) {
    int limit = Math.max(2, given.length() / 4);
    return known.stream()
        .filter(k -> !k.equals(given))
        .map(k -> new Near(k, editDistance(given, k)))
        .filter(near -> near.distance() <= limit)
        .min(Comparator.comparingInt(Near::distance))
        .map(Near::known);
  }

  private record Near(String known, int distance) {}

  /** Levenshtein distance, two rows of the dynamic-programming table at a time. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }
}
