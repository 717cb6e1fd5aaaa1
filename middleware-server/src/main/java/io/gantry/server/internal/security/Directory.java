package io.gantry.server.internal.security;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import java.util.Optional;

/**
 * A directory of users kept outside Gantry (LDAP, Active Directory): who may log in, with which
 * password, in which role and under which OS account. {@link UserAuthenticator} asks it for every
 * name that is not a local account; the directory is the owner of those users' facts, and the job
 * store keeps a copy only so that jobs, tokens and OS accounts have a row to refer to.
 */
public interface Directory {
  /**
   * The user {@code name} as the directory has them now, if {@code password} is theirs and the
   * configured filter and groups let them in; empty otherwise, and when the directory cannot be
   * reached (a login fails closed). Never cached: each password is checked by the directory.
   */
  Optional<DirectoryUser> authenticate(String name, char[] password);

  /**
   * The user {@code name} as the directory has them, for a caller already authenticated (a session
   * or access token, or the role check of each call); empty when they were removed, disabled or
   * taken out of the groups that let them in. May answer from a cache at most a few seconds old
   * (directory.recheck-after).
   */
  Optional<DirectoryUser> lookup(String name);

  /** A directory user: the Gantry name, the role from group membership, and the OS account. */
  record DirectoryUser(String name, UserAccount.Role role, Optional<String> osAccount) {}
}
