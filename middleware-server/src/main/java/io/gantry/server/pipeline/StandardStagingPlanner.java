package io.gantry.server.pipeline;

import io.gantry.jsdl.SecretBinding;
import io.gantry.jsdl.StagingCredential;
import io.gantry.jsdl.model.core.CreationFlagEnumeration;
import io.gantry.jsdl.model.core.DataStagingType;
import io.gantry.jsdl.model.core.SourceTargetType;
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
 * identities the owner may use, and that an encrypted password decrypts for the owner and the
 * URI's destination ({@code scheme://user@host:port}). A Source becomes a stage-in, a Target a
 * stage-out, both one of each; {@code DeleteOnTermination=true} marks the file for removal once
 * the job has terminated. A FileName with a {@code FilesystemName} lies in that file system's
 * directory ({@link FileSystemRoots}) instead of the job directory.
 */
final class StandardStagingPlanner {
  private final UriStagingPolicy policy;
  private final JobPlanner.DataSourceAccess access;

  StandardStagingPlanner(UriStagingPolicy policy, JobPlanner.DataSourceAccess access) {
    this.policy = policy;
    this.access = access;
  }

  /** The transfers and deletions of a job's DataStaging elements. */
  record Plan(List<UriTransfer> in, List<UriTransfer> out, List<StagedName> deleteOnTermination) {}

  Plan plan(String owner, List<DataStagingType> elements, FileSystemRoots fileSystems, List<String> problems) {
    List<UriTransfer> in = new ArrayList<>();
    List<UriTransfer> out = new ArrayList<>();
    List<StagedName> delete = new ArrayList<>();
    int order = 0;
    for (DataStagingType staging : elements) {
      order++;
      String where = "DataStaging " + order + " (FileName " + staging.getFileName() + ")";
      CreationFlag flag = creationFlag(staging.getCreationFlag());
      Optional<NamedFileSystem> named = fileSystem(staging, fileSystems, where, problems);
      if (staging.getFilesystemName() != null && named.isEmpty()) {
        continue; // an unknown file system or a name leaving it: reported, nothing to stage
      }
      NamedFileSystem fileSystem = named.orElse(null);
      transfer(owner, order, UriTransfer.Direction.IN, staging.getSource(), staging.getFileName(), flag, fileSystem, where,
          problems).ifPresent(in::add);
      transfer(owner, order, UriTransfer.Direction.OUT, staging.getTarget(), staging.getFileName(), flag, fileSystem, where,
          problems).ifPresent(out::add);
      if (Boolean.TRUE.equals(staging.isDeleteOnTermination())) {
        delete.add(new StagedName(fileSystem, staging.getFileName().strip()));
      }
    }
    return new Plan(in, out, delete);
  }

  /**
   * The file system of a DataStaging with a FilesystemName, its FileName checked to stay inside;
   * empty when it names none (the job directory) or when it cannot be used (a problem is added;
   * an unknown name is reported once for the whole job by {@link JobPlanner}).
   */
  private static Optional<NamedFileSystem> fileSystem(DataStagingType staging, FileSystemRoots fileSystems,
      String where, List<String> problems) {
    String name = staging.getFilesystemName() == null ? null : staging.getFilesystemName().strip();
    if (name == null || fileSystems.root(name).isEmpty()) {
      return Optional.empty();
    }
    try {
      fileSystems.resolve(name, staging.getFileName());
      return Optional.of(new NamedFileSystem(name, fileSystems.root(name).get()));
    } catch (IllegalArgumentException e) {
      problems.add(where + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<UriTransfer> transfer(String owner, int order, UriTransfer.Direction direction,
      SourceTargetType side, String fileName, CreationFlag flag, NamedFileSystem fileSystem, String where,
      List<String> problems) {
    if (side == null || side.getURI() == null || side.getURI().isBlank()) {
      return Optional.empty(); // the parser reports a Source or Target without a URI
    }
    String what = where + (direction == UriTransfer.Direction.IN ? " Source" : " Target");
    URI uri;
    try {
      uri = new URI(side.getURI().strip());
    } catch (URISyntaxException e) {
      problems.add(what + ": the URI is not valid: " + e.getMessage());
      return Optional.empty();
    }
    if (uri.getRawUserInfo() != null && uri.getRawUserInfo().contains(":")) {
      problems.add(what + ": the URI carries a password; give it as an encrypted UsernameToken Password instead");
      return Optional.empty();
    }
    Optional<StagingCredential> credential = StagingCredential.of(side.getAny());
    String user = credential.map(StagingCredential::user).filter(u -> !u.isBlank()).orElse(uri.getUserInfo());
    UriTransfer transfer;
    try {
      transfer = new UriTransfer(order, direction, uri, fileName.strip(), flag,
          credential.map(c -> credentialToken(owner, c)).orElse(null), user, fileSystem);
    } catch (IllegalArgumentException e) {
      problems.add(what + ": " + e.getMessage());
      return Optional.empty();
    }
    policy.problem(transfer).ifPresent(p -> problems.add(what + ": " + p));
    credential.ifPresent(c -> credentialProblem(owner, transfer, c).ifPresent(p -> problems.add(what + ": " + p)));
    if ((transfer.scheme().equals("scp") || transfer.scheme().equals("sftp")) && credential.isEmpty()) {
      problems.add(what + ": " + transfer.scheme() + " needs a Credential: a UsernameToken with an encrypted"
          + " password, or a gx:IdentityRef naming an SSH identity of the server");
    }
    return Optional.of(transfer);
  }

  private static String credentialToken(String owner, StagingCredential c) {
    return c.identityRef() != null ? c.identityRef() : OwnedSecret.token(owner, c.password());
  }

  private Optional<String> credentialProblem(String owner, UriTransfer transfer, StagingCredential c) {
    if (c.identityRef() != null) {
      if (transfer.user() == null) {
        return Optional.of("name the remote user in the URI (" + transfer.scheme() + "://USER@host/...) to log in"
            + " with identity '" + c.identityRef() + "'");
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
  static SecretBinding binding(String owner, UriTransfer transfer) {
    return SecretBinding.uri(owner, transfer.scheme(), transfer.user(), transfer.uri().getHost(), transfer.port());
  }

  private static CreationFlag creationFlag(CreationFlagEnumeration flag) {
    return flag == null ? CreationFlag.OVERWRITE : CreationFlag.fromJsdl(flag.value());
  }
}
