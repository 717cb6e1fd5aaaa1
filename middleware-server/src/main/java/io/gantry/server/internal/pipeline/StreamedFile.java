package io.gantry.server.internal.pipeline;

import io.gantry.jsdl.StreamDelivery;
import io.gantry.server.internal.plan.StreamedInput;
import io.gantry.staging.AppendedFile;
import io.gantry.staging.Manifest;
import io.gantry.staging.ManifestRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One stage-in a running program reads as it arrives (docs/workflows.md, "Streaming between
 * stages").
 *
 * <ol>
 *   <li>The follow: the staging gateway copies the producer's file, as it grows, into a spill copy
 *       in a directory of the server's ({@code staging.root/.gantry-streams/JOB/N}, 0700), under
 *       its temporary name with its SHA-256, as every stage-in: the spill is on disk, so a program
 *       that reads slowly never holds the producer's side back.
 *   <li>The pump: copies the spill copy, as it grows, into what the program reads at the staged
 *       name, made by the server before the program starts (so before the job directory is the
 *       job's): a FIFO ({@link StreamDelivery#PIPE}, mkfifo, opened read-write with no link
 *       followed, so the open never blocks and a write blocks only while the pipe is full: the
 *       program's reading is the back-pressure) or a new regular file ({@link StreamDelivery#FILE},
 *       created exclusively; in a job directory on a cluster reached over SSH, made there and
 *       appended over SFTP, {@link #appending}). When the follow has ended the pump checks that it
 *       delivered exactly the bytes the manifest records (size and SHA-256), then closes: the
 *       program reads end of file.
 *   <li>A program that ends stops the pump at once (a write blocked on a FIFO nobody reads is
 *       released by closing the channel); the follow still runs to its end for the manifest when
 *       the program succeeded. {@link #cut} stops both. The spill copy is removed either way.
 * </ol>
 */
final class StreamedFile {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StreamedFile.class);
  private static final int BLOCK = 64 * 1024;
  private static final long FIRST_PAUSE_MS = 5;
  private static final long LAST_PAUSE_MS = 200;

  /** The follow into the spill directory: one stage-in step, its manifest or its failure. */
  interface Follow {
    Manifest into(Path spill) throws Exception;
  }

  private final StreamedInput input;
  private final Path spillRoot;
  private final Delivery delivery;

  /**
   * The program reads the growing file on another host (ComputePolicy#streamsAcrossHosts): each
   * block is forced to the file system before the next is written, so that no reader there sees a
   * later block before an earlier one.
   */
  private final boolean durableBlocks;

  private final CompletableFuture<Manifest> followed = new CompletableFuture<>();
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  private volatile boolean cut;
  private volatile boolean programEnded;

  /**
   * The stream failed: what the program reads stays open (no end of file that could pass for the
   * end of its input) until its program has been stopped ({@link #cut}, {@link #programEnded}).
   */
  private volatile boolean holdOpen;

  private volatile Thread follower;
  private volatile Thread pump;

  private StreamedFile(
      StreamedInput input, Path spillRoot, Delivery delivery, boolean durableBlocks) {
    this.input = input;
    this.spillRoot = spillRoot;
    this.delivery = delivery;
    this.durableBlocks = durableBlocks;
  }

  /** What the program reads, as the pump writes it. */
  private interface Delivery {
    /** Writes every remaining byte of {@code block}; with {@code durable}, forced to disk. */
    void write(ByteBuffer block, boolean durable) throws IOException;

    void close() throws IOException;
  }

  /** A FIFO or a growing file in a job directory on this host. */
  private static Delivery local(FileChannel channel) {
    return new Delivery() {
      @Override
      public void write(ByteBuffer block, boolean durable) throws IOException {
        while (block.hasRemaining()) {
          channel.write(block);
        }
        if (durable) {
          channel.force(false);
        }
      }

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }

  /**
   * A growing file in a job directory on a cluster reached over SSH, appended over SFTP as the
   * job's account; each append is on the cluster's file system before it returns ({@link
   * AppendedFile}), the same order a reader on another host sees that {@code durableBlocks} gives
   * on this host's file system.
   */
  private static Delivery remote(AppendedFile file) {
    return new Delivery() {
      @Override
      public void write(ByteBuffer block, boolean durable) throws IOException {
        file.append(block);
      }

      @Override
      public void close() {
        file.close();
      }
    };
  }

  /**
   * What the program will read is {@code file} ({@link StreamDelivery#FILE} only), made by the
   * server in a job directory on a cluster ({@code JobDirectories#createAppended}); the spill
   * directory {@code spillRoot} is on this host.
   */
  static StreamedFile appending(StreamedInput input, AppendedFile file, Path spillRoot)
      throws IOException {
    try {
      if (input.delivery() != StreamDelivery.FILE) {
        throw new IOException(
            "gx:Stream " + input.delivery() + " cannot be fed to a program on a cluster");
      }
      Files.createDirectories(spillRoot);
      Files.setPosixFilePermissions(spillRoot, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      file.close();
      throw e;
    }
    return new StreamedFile(input, spillRoot, remote(file), false);
  }

  /**
   * Makes what the program will read at the staged name in {@code jobDirectory} (still the
   * server's) and the spill directory {@code spillRoot}; {@code acrossHosts}: the program reads a
   * growing file on another host.
   */
  static StreamedFile open(
      StreamedInput input, Path jobDirectory, Path spillRoot, boolean acrossHosts)
      throws IOException {
    String name = input.transfer().fileName();
    Path target = jobDirectory.resolve(name).normalize();
    if (!target.startsWith(jobDirectory) || target.equals(jobDirectory)) {
      throw new IOException(name + " leaves the job directory");
    }
    createDirectories(jobDirectory, target.getParent());
    FileChannel channel;
    if (input.delivery() == StreamDelivery.PIPE) {
      mkfifo(target);
      channel =
          FileChannel.open(
              target, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } else {
      channel =
          FileChannel.open(
              target,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.WRITE,
              LinkOption.NOFOLLOW_LINKS);
    }
    try {
      Files.createDirectories(spillRoot);
      Files.setPosixFilePermissions(spillRoot, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new StreamedFile(
        input, spillRoot, local(channel), acrossHosts && input.delivery() == StreamDelivery.FILE);
  }

  /** Every directory from {@code root} down to {@code dir}, none of them a link. */
  private static void createDirectories(Path root, Path dir) throws IOException {
    Path at = root;
    for (Path part : root.relativize(dir)) {
      at = at.resolve(part);
      if (Files.isSymbolicLink(at)) {
        throw new IOException(root.relativize(at) + " is a link");
      }
      if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectory(at);
      }
    }
  }

  /** mkfifo(1): fails where the name exists, link or not (mknod's O_EXCL semantics). */
  private static void mkfifo(Path target) throws IOException {
    Process p =
        new ProcessBuilder("mkfifo", "-m", "0600", "--", target.toString())
            .redirectErrorStream(true)
            .start();
    try {
      String said =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IOException("mkfifo: " + said.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted while making the FIFO", e);
    }
  }

  /**
   * Starts the follow and the pump on {@code threads}. {@code recorded} gets the manifest once the
   * stream ended complete; {@code failed} the reason when it failed (before {@link #ended}
   * completes).
   */
  void start(
      ExecutorService threads,
      Follow follow,
      Consumer<Manifest> recorded,
      Consumer<String> failed) {
    threads.execute(
        () -> {
          follower = Thread.currentThread();
          try {
            if (!cut) {
              followed.complete(follow.into(spillRoot));
            }
          } catch (Exception | Error e) {
            LOG.info(
                "streaming {}: the follow ended: {}", input.transfer().fileName(), e.toString());
            followed.completeExceptionally(e);
          } finally {
            followed.completeExceptionally(new IOException("the stream was cut"));
            follower = null;
            Thread.interrupted(); // a cut's interrupt ends here, not in the pool's next task
          }
        });
    threads.execute(
        () -> {
          pump = Thread.currentThread();
          try {
            Manifest manifest = pumpToEnd();
            recorded.accept(manifest);
          } catch (StreamFailure e) {
            holdOpen = true;
            if (!cut) {
              failed.accept(e.getMessage());
            }
          } catch (IOException | InterruptedException | RuntimeException e) {
            LOG.info("streaming {}: {}", input.transfer().fileName(), e.toString());
            if (!cut) {
              holdOpen = true;
              failed.accept(
                  "streaming " + input.transfer().fileName() + " into the program failed: " + e);
            }
          } finally {
            pump = null;
            Thread.interrupted();
            finish();
          }
        });
  }

  /** The program ended: nothing reads any more, so the pump stops writing. */
  void programEnded() {
    programEnded = true;
    closeDelivery();
  }

  /** Stops the follow and the pump: the job ended otherwise than by its program's success. */
  void cut() {
    cut = true;
    closeDelivery();
    Thread f = follower;
    if (f != null) {
      f.interrupt();
    }
    Thread p = pump;
    if (p != null) {
      p.interrupt();
    }
  }

  /**
   * Stops the follow and the pump because another input of the job failed; what the program reads
   * stays open until the program is stopped.
   */
  void abandon() {
    holdOpen = true;
    cut = true;
    Thread f = follower;
    if (f != null) {
      f.interrupt();
    }
    Thread p = pump;
    if (p != null) {
      p.interrupt();
    }
  }

  /** Completes once the follow and the pump have stopped and the spill copy is removed. */
  CompletableFuture<Void> ended() {
    return ended;
  }

  private Manifest pumpToEnd() throws IOException, InterruptedException, StreamFailure {
    MessageDigest sha = sha256();
    ByteBuffer block = ByteBuffer.allocate(BLOCK);
    long pumped = 0;
    long pause = FIRST_PAUSE_MS;
    boolean delivering = true;
    FileChannel spill = null;
    try {
      while (true) {
        if (cut) {
          throw new InterruptedException("cut");
        }
        boolean followEnded = followed.isDone(); // asked before reading: no byte comes after
        if (spill == null) {
          spill = openSpill();
          if (spill != null) {
            LOG.info("streaming {} into the program", input.transfer().fileName());
          }
        }
        int n = spill == null ? 0 : spill.read(block);
        if (n > 0) {
          block.flip();
          sha.update(block.duplicate());
          if (delivering) {
            delivering = deliver(block);
          }
          pumped += n;
          block.clear();
          pause = FIRST_PAUSE_MS;
          continue;
        }
        if (delivering && programEnded) {
          delivering = false;
        }
        if (followEnded) {
          return checked(pumped, sha);
        }
        Thread.sleep(pause);
        pause = Math.min(pause * 2, LAST_PAUSE_MS);
      }
    } finally {
      if (spill != null) {
        spill.close();
      }
    }
  }

  /** Writes {@code block} to the program; false once the program has ended and nothing reads. */
  private boolean deliver(ByteBuffer block) throws IOException {
    try {
      delivery.write(block, durableBlocks);
      return true;
    } catch (IOException e) { // closed under a blocked write, or EPIPE
      if (programEnded || cut) {
        return false;
      }
      throw e;
    }
  }

  /** The manifest, once every byte it records was pumped, and exactly those bytes. */
  private Manifest checked(long pumped, MessageDigest sha) throws StreamFailure {
    Manifest manifest;
    try {
      manifest = followed.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new StreamFailure(
          "stage-in failed: "
              + (cause.getMessage() == null ? cause.toString() : cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StreamFailure("stage-in interrupted");
    }
    ManifestRecord record = manifest.records().get(0);
    String sent = HexFormat.of().formatHex(sha.digest());
    if (pumped != record.bytes() || !sent.equalsIgnoreCase(record.sha256())) {
      throw new StreamFailure(
          "the stream of "
              + input.transfer().fileName()
              + " was copied again after a broken read ("
              + pumped
              + " bytes reached the program, the file has "
              + record.bytes()
              + "): the program read other bytes than the staged file's");
    }
    return manifest;
  }

  /**
   * The spill copy: the gateway's temporary file ({@code .NAME.*.part}) while it is written, or the
   * file under its name once complete; null before either exists. Only the server writes this
   * directory.
   */
  private FileChannel openSpill() throws IOException {
    Path file = spillRoot.resolve(input.transfer().fileName()).normalize();
    Path dir = file.getParent();
    String name = file.getFileName().toString();
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    Path found = null;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String e = entry.getFileName().toString();
        if (e.equals(name) || (e.startsWith("." + name + ".") && e.endsWith(".part"))) {
          found = entry;
        }
      }
    }
    if (found == null) {
      return null;
    }
    try {
      return FileChannel.open(found, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null; // renamed meanwhile: found again on the next round
    }
  }

  private void closeDelivery() {
    try {
      delivery.close();
    } catch (IOException e) {
      // closing is all that is wanted
    }
  }

  /** After the pump: the follow stopped, the spill copy removed, then {@link #ended}. */
  private void finish() {
    if (!holdOpen || programEnded) {
      closeDelivery();
    }
    Thread f = follower;
    if (f != null && !followed.isDone()) {
      f.interrupt();
    }
    try {
      followed.handle((m, e) -> null).get(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      // a follow that does not stop leaves its spill copy; it is removed with the next stream
    }
    try (Stream<Path> paths = Files.walk(spillRoot)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a spill directory already gone
    }
    ended.complete(null);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The stream ended otherwise than complete; the message is the job's failure reason. */
  static final class StreamFailure extends Exception {
    private static final long serialVersionUID = 1L;

    StreamFailure(String message) {
      super(message);
    }
  }
}
