package io.gantry.jsdl;

import java.nio.file.Path;
import java.util.List;

/**
 * Limits and policy for {@link JsdlParser}.
 *
 * @param maxBytes documents larger than this are refused before any parsing
 * @param maxDepth documents nesting elements deeper than this are refused while reading
 * @param allowedRoots absolute directories outside the job directory that an application's working
 *     directory, host file, input and output files may name (e.g. a shared project area); staged
 *     files always stay inside the job directory
 * @param maxWallTimeSeconds the longest WallTimeLimit a job may ask for ({@link Long#MAX_VALUE}: no
 *     bound); a longer one is an error at its element, not silently shortened
 * @param maxFarmTasks the most tasks a task farm's sweep may make; more is an error at the Sweep
 */
public record ParserOptions(
    long maxBytes,
    int maxDepth,
    List<Path> allowedRoots,
    long maxWallTimeSeconds,
    long maxFarmTasks) {

  /** A farm's tasks are held in memory at launch: a million is the parser's own ceiling. */
  public static final long DEFAULT_MAX_FARM_TASKS = 1_000_000;

  /** 4 MiB: real job files are a few KiB; a VaR job with long SQL is far below. */
  public static final long DEFAULT_MAX_BYTES = 4L * 1024 * 1024;

  /** A JSDL job nests about 8 levels; 64 leaves room for extensions and stops stack attacks. */
  public static final int DEFAULT_MAX_DEPTH = 64;

  public ParserOptions {
    if (maxBytes < 1024) {
      throw new IllegalArgumentException("maxBytes cannot be less than 1024, was " + maxBytes);
    }
    if (maxDepth < 8) {
      throw new IllegalArgumentException("maxDepth cannot be less than 8, was " + maxDepth);
    }
    allowedRoots = List.copyOf(allowedRoots);
    for (Path root : allowedRoots) {
      if (!root.isAbsolute()) {
        throw new IllegalArgumentException("allowedRoots must be absolute paths, was " + root);
      }
    }
    allowedRoots = allowedRoots.stream().map(Path::normalize).toList();
    if (maxWallTimeSeconds < 1) {
      throw new IllegalArgumentException(
          "maxWallTimeSeconds cannot be less than 1, was " + maxWallTimeSeconds);
    }
    if (maxFarmTasks < 1) {
      throw new IllegalArgumentException("maxFarmTasks cannot be less than 1, was " + maxFarmTasks);
    }
  }

  /** The options without a bound of its own on task farms (the parser's ceiling). */
  public ParserOptions(
      long maxBytes, int maxDepth, List<Path> allowedRoots, long maxWallTimeSeconds) {
    this(maxBytes, maxDepth, allowedRoots, maxWallTimeSeconds, DEFAULT_MAX_FARM_TASKS);
  }

  /** The options as before there was a wall-time bound: none. */
  public ParserOptions(long maxBytes, int maxDepth, List<Path> allowedRoots) {
    this(maxBytes, maxDepth, allowedRoots, Long.MAX_VALUE, DEFAULT_MAX_FARM_TASKS);
  }

  public static ParserOptions defaults() {
    return new ParserOptions(DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, List.of());
  }

  public ParserOptions withMaxBytes(long bytes) {
    return new ParserOptions(bytes, maxDepth, allowedRoots, maxWallTimeSeconds, maxFarmTasks);
  }

  public ParserOptions withMaxDepth(int depth) {
    return new ParserOptions(maxBytes, depth, allowedRoots, maxWallTimeSeconds, maxFarmTasks);
  }

  public ParserOptions withAllowedRoots(List<Path> roots) {
    return new ParserOptions(maxBytes, maxDepth, roots, maxWallTimeSeconds, maxFarmTasks);
  }

  /** Refuses a WallTimeLimit longer than {@code limit} (whole seconds). */
  public ParserOptions withMaxWallTime(java.time.Duration limit) {
    return new ParserOptions(
        maxBytes, maxDepth, allowedRoots, Math.max(1, limit.toSeconds()), maxFarmTasks);
  }

  /** Refuses a task farm whose sweep makes more than {@code limit} tasks. */
  public ParserOptions withMaxFarmTasks(long limit) {
    return new ParserOptions(maxBytes, maxDepth, allowedRoots, maxWallTimeSeconds, limit);
  }
}
