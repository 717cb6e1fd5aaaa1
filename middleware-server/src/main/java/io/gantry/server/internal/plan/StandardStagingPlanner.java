package io.gantry.server.internal.plan;

import io.gantry.jsdl.SecretBinding;
import io.gantry.jsdl.StagingCredential;
import io.gantry.jsdl.StagingStep;
import io.gantry.server.internal.credentials.OwnedSecret;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.NamedFileSystem;
import io.gantry.staging.StagedName;
import io.gantry.staging.UriStagingPolicy;
import io.gantry.staging.UriTransfer;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Maps standard JSDL {@code DataStaging} onto the gateway's URI transfers, checking at validation
 * what only the server knows: its file roots and host rule ({@link UriStagingPolicy}), the
 * identities the owner may use, and that an encrypted password decrypts for the owner and the URI's
 * destination ({@code scheme://user@host:port}). It reads jsdl-schema's typed {@link StagingStep}s
 * (defaults applied): a Source becomes a stage-in, a Target a stage-out, both one of each; {@code
 * DeleteOnTermination=true} marks the file for removal once the job has terminated. A FileName with
 * a {@code FilesystemName} lies in that file system's directory ({@link FileSystemRoots}) instead
 * of the job directory.
 */
public final class StandardStagingPlanner {
  private final UriStagingPolicy policy;
  private final JobPlanner.DataSourceAccess access;

  public StandardStagingPlanner(UriStagingPolicy policy, JobPlanner.DataSourceAccess access) {
    this.policy = policy;
    this.access = access;
  }

  /** The transfers and deletions of a job's DataStaging elements. */
  public record Plan(
      List<UriTransfer> in, List<UriTransfer> out, List<StagedName> deleteOnTermination) {
    /**
     * Whether any of it reads or writes outside the job directory (a file system, a {@code file:}
     * URI), which staging does as the job's OS account.
     */
    boolean actsOutsideTheJobDirectory() {
      return java.util.stream.Stream.concat(in.stream(), out.stream())
              .anyMatch(t -> t.fileSystem() != null || t.scheme().equals("file"))
          || deleteOnTermination.stream().anyMatch(n -> n.fileSystem() != null);
    }

    /** This plan with its files outside the job directory handled as {@code account}. */
    Plan as(io.gantry.staging.FileAccount account) {
      return new Plan(
          in.stream().map(t -> t.as(account)).toList(),
          out.stream().map(t -> t.as(account)).toList(),
          deleteOnTermination.stream()
              .map(
                  n ->
                      n.fileSystem() == null
                          ? n
                          : new StagedName(n.fileSystem().as(account), n.fileName()))
              .toList());
    }
  }

  public Plan plan(
      String owner, List<StagingStep> steps, FileSystemRoots fileSystems, List<String> problems) {
    List<UriTransfer> in = new ArrayList<>();
    List<UriTransfer> out = new ArrayList<>();
    List<StagedName> delete = new ArrayList<>();
    for (StagingStep step : steps) {
      CreationFlag flag = CreationFlag.fromJsdl(step.creationFlag().value());
      Optional<NamedFileSystem> named = fileSystem(step, fileSystems, problems);
      if (step.fileSystemName().isPresent() && named.isEmpty()) {
        continue; // an unknown file system or a name leaving it: reported, nothing to stage
      }
      NamedFileSystem fileSystem = named.orElse(null);
      if (fileSystem != null && !fileSystem.stagingWrites() && step.source().isPresent()) {
        problems.add(
            step.where()
                + ": file system "
                + fileSystem.name()
                + " is read-only (filesystem."
                + fileSystem.name()
                + ".read-only=true), so staging does not write "
                + step.fileName()
                + " into it; the operator allows that only with filesystem."
                + fileSystem.name()
                + ".staging-writes=true");
        continue;
      }
      step.source()
          .flatMap(
              source ->
                  transfer(
                      owner, step, UriTransfer.Direction.IN, source, flag, fileSystem, problems))
          .ifPresent(in::add);
      step.target()
          .flatMap(
              target ->
                  transfer(
                      owner, step, UriTransfer.Direction.OUT, target, flag, fileSystem, problems))
          .ifPresent(out::add);
      if (step.deleteOnTermination()) {
        delete.add(new StagedName(fileSystem, step.fileName()));
      }
    }
    return new Plan(in, out, delete);
  }

  /**
   * The file system of a DataStaging with a FilesystemName, its FileName checked to stay inside;
   * empty when it names none (the job directory) or when it cannot be used (a problem is added; an
   * unknown name is reported once for the whole job by {@link JobPlanner}).
   */
  private static Optional<NamedFileSystem> fileSystem(
      StagingStep step, FileSystemRoots fileSystems, List<String> problems) {
    Optional<String> name = step.fileSystemName();
    if (name.isEmpty() || fileSystems.root(name.get()).isEmpty()) {
      return Optional.empty();
    }
    try {
      fileSystems.resolve(name.get(), step.fileName());
      return Optional.of(
          new NamedFileSystem(
              name.get(),
              fileSystems.root(name.get()).get(),
              fileSystems.stagingWrites(name.get()),
              null));
    } catch (IllegalArgumentException e) {
      problems.add(step.where() + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<UriTransfer> transfer(
      String owner,
      StagingStep step,
      UriTransfer.Direction direction,
      StagingStep.Endpoint side,
      CreationFlag flag,
      NamedFileSystem fileSystem,
      List<String> problems) {
    String what = step.where() + (direction == UriTransfer.Direction.IN ? " Source" : " Target");
    URI uri;
    try {
      uri = new URI(side.uri());
    } catch (URISyntaxException e) {
      problems.add(what + ": the URI is not valid: " + e.getMessage());
      return Optional.empty();
    }
    if (uri.getRawUserInfo() != null && uri.getRawUserInfo().contains(":")) {
      problems.add(
          what
              + ": the URI carries a password; give it as an encrypted UsernameToken Password instead");
      return Optional.empty();
    }
    Optional<StagingCredential> credential = side.credential();
    String user =
        credential.map(StagingCredential::user).filter(u -> !u.isBlank()).orElse(uri.getUserInfo());
    UriTransfer transfer;
    try {
      transfer =
          new UriTransfer(
              step.order(),
              direction,
              uri,
              step.fileName(),
              flag,
              credential.map(c -> credentialToken(owner, c)).orElse(null),
              user,
              fileSystem,
              direction == UriTransfer.Direction.IN
                  ? CacheRules.of(step.cacheValidity().orElse(null), null)
                  : null);
    } catch (IllegalArgumentException e) {
      problems.add(what + ": " + e.getMessage());
      return Optional.empty();
    }
    policy.problem(transfer).ifPresent(p -> problems.add(what + ": " + p));
    credential.ifPresent(
        c -> credentialProblem(owner, transfer, c).ifPresent(p -> problems.add(what + ": " + p)));
    if ((transfer.scheme().equals("scp") || transfer.scheme().equals("sftp"))
        && credential.isEmpty()) {
      problems.add(
          what
              + ": "
              + transfer.scheme()
              + " needs a Credential: a UsernameToken with an encrypted"
              + " password, or a gx:IdentityRef naming an SSH identity of the server");
    }
    return Optional.of(transfer);
  }

  private static String credentialToken(String owner, StagingCredential c) {
    return c.identityRef() != null ? c.identityRef() : OwnedSecret.token(owner, c.password());
  }

  private Optional<String> credentialProblem(
      String owner, UriTransfer transfer, StagingCredential c) {
    if (c.identityRef() != null) {
      if (transfer.user() == null) {
        return Optional.of(
            "name the remote user in the URI ("
                + transfer.scheme()
                + "://USER@host/...) to log in"
                + " with identity '"
                + c.identityRef()
                + "'");
      }
      return Optional.ofNullable(access.identityProblem(c.identityRef(), owner));
    }
    if (c.password() == null || transfer.user() == null) {
      return Optional.empty(); // the parser reports an incomplete UsernameToken
    }
    try {
      SecretBinding use = binding(owner, transfer);
      String problem = access.encryptedSecretProblem(c.password(), use);
      return Optional.ofNullable(problem == null ? null : "the UsernameToken Password " + problem);
    } catch (IllegalArgumentException e) {
      return Optional.of("the UsernameToken Password cannot be bound: " + e.getMessage());
    }
  }

  /** The destination a DataStaging password is bound to: the URI's scheme, user, host and port. */
  public static SecretBinding binding(String owner, UriTransfer transfer) {
    return SecretBinding.uri(
        owner, transfer.scheme(), transfer.user(), transfer.uri().getHost(), transfer.port());
  }
}
