package io.gantry.server.internal.service;

import io.gantry.server.api.JobFileEntry;
import io.gantry.staging.ClusterConnection;
import io.gantry.staging.JobDirectoryReader;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;

/**
 * Opens a file of a job's directory for the server's readers (getJobOutput, the web pages), where
 * the directory lies: on this host through {@link JobDirectoryReader} (no link followed at any
 * step), or on the cluster of {@code compute.ssh-host} over SFTP ({@link
 * ClusterConnection#openJobFile}, the same refusals with the limits docs/security.md gives). A job
 * directory is on the cluster when it lies under {@code compute.root}; the plan stored with each
 * job fixed where that was.
 */
public final class JobFileReader {
  /** Every job directory on this host. */
  public static final JobFileReader LOCAL = new JobFileReader(null, null);

  private final Function<Path, ClusterConnection> cluster;
  private final Path clusterRoot;

  private JobFileReader(Function<Path, ClusterConnection> cluster, Path clusterRoot) {
    this.cluster = cluster;
    this.clusterRoot = clusterRoot;
  }

  /**
   * Job directories under {@code root} are read from the cluster, each over the connection {@code
   * cluster} gives for it (as the directory's own account where jobs log in as theirs), the others
   * here.
   */
  public static JobFileReader withCluster(Function<Path, ClusterConnection> cluster, Path root) {
    return new JobFileReader(cluster, root);
  }

  /**
   * The most entries {@link #list} returns: a job can make millions of files; a listing is read.
   */
  public static final int MAX_ENTRIES = 10_000;

  /** How deep {@link #list} looks below the job directory. */
  private static final int MAX_DEPTH = 32;

  /**
   * The entries of a job directory on this host, by path, at most {@link #MAX_ENTRIES}: regular
   * files with their sizes, links and other entries by type, never followed.
   *
   * @throws java.nio.file.NoSuchFileException when the directory is not there
   * @throws UnsupportedOperationException for a directory on the cluster of {@code
   *     compute.ssh-host}, which this server reads by name only
   */
  public List<JobFileEntry> list(Path jobDirectory) throws IOException {
    if (cluster != null && jobDirectory.normalize().startsWith(clusterRoot)) {
      throw new UnsupportedOperationException(
          "the job directory is on the cluster (compute.ssh-host), where this server reads files by"
              + " name only");
    }
    List<JobFileEntry> entries = new ArrayList<>();
    // no FOLLOW_LINKS: a link is an entry of its own, never a way out of the directory
    Files.walkFileTree(
        jobDirectory,
        EnumSet.noneOf(FileVisitOption.class),
        MAX_DEPTH,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (entries.size() >= MAX_ENTRIES) {
              return FileVisitResult.TERMINATE;
            }
            String name = jobDirectory.relativize(file).toString().replace('\\', '/');
            if (attributes.isRegularFile()) {
              entries.add(new JobFileEntry(name, attributes.size(), "file"));
            } else if (!attributes.isDirectory()) {
              entries.add(
                  new JobFileEntry(name, 0, attributes.isSymbolicLink() ? "link" : "other"));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (file.equals(jobDirectory)) {
              throw e;
            }
            return FileVisitResult
                .CONTINUE; // a file gone meanwhile, or one the job made unreadable
          }
        });
    entries.sort(Comparator.comparing(e -> e.path));
    return entries;
  }

  /**
   * @throws java.nio.file.NoSuchFileException when the file is not there (yet)
   * @throws JobDirectoryReader.RefusedFileException when it is a link or not a regular file
   */
  public SeekableByteChannel open(Path jobDirectory, String relativeName) throws IOException {
    if (cluster != null && jobDirectory.normalize().startsWith(clusterRoot)) {
      // the name is refused here exactly as on this host, before anything is asked of the cluster
      JobDirectoryReader.checkName(relativeName);
      return cluster
          .apply(jobDirectory.normalize())
          .openJobFile(jobDirectory.toString(), relativeName);
    }
    return JobDirectoryReader.open(jobDirectory, relativeName);
  }
}
