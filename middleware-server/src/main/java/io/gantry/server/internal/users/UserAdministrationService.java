package io.gantry.server.internal.users;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.UserAccountFault;
import io.gantry.server.api.UserInfo;
import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.security.AccountRuleException;
import io.gantry.server.internal.security.UserAdministration;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The administrators' user operations of the SOAP API: checks that the caller is an administrator,
 * applies {@link UserAdministration}'s rules to the running server's job store, and logs who
 * changed which account (never a password).
 */
public final class UserAdministrationService {
  private static final Logger log = LoggerFactory.getLogger(UserAdministrationService.class);

  private final UserAdministration users;

  /** Where a removed user's certificates are revoked, or null (no per-user certificates). */
  private final RemovedUserCertificates certificates;

  public UserAdministrationService(UserAdministration users) {
    this(users, null);
  }

  public UserAdministrationService(UserAdministration users, RemovedUserCertificates certificates) {
    this.users = users;
    this.certificates = certificates;
  }

  public List<UserInfo> list(Caller caller) throws AccessDeniedFault {
    requireAdministrator(caller, "list users");
    return users.list().stream().map(UserAdministrationService::info).toList();
  }

  public UserInfo add(Caller caller, String name, String password, String role, String osAccount)
      throws AccessDeniedFault, UserAccountFault {
    requireAdministrator(caller, "add users");
    UserAccount.Role r = role(role == null ? "user" : role);
    try {
      UserInfo added =
          info(users.add(name, r, blankToNull(osAccount), required("password", password)));
      log.info("user {} added by {} ({})", name, caller.name(), r.value());
      return added;
    } catch (AccountRuleException e) {
      throw fault(e);
    }
  }

  public UserInfo remove(Caller caller, String name) throws AccessDeniedFault, UserAccountFault {
    requireAdministrator(caller, "remove users");
    try {
      UserInfo before =
          info(users.find(name).orElse(new UserAdministration.Entry(name, null, null)));
      List<String> jobs = certificates == null ? List.of() : certificates.jobsOf(name);
      users.remove(name);
      log.info("user {} removed by {}", name, caller.name());
      if (certificates != null) {
        try {
          certificates.revoke(before.osAccount, jobs);
          log.info("the certificates of user {}'s {} jobs are revoked", name, jobs.size());
        } catch (java.io.IOException | RuntimeException e) {
          log.error(
              "user {} is removed, but the certificates of their jobs could not be revoked: {}",
              name,
              e.getMessage());
        }
      }
      return before;
    } catch (AccountRuleException e) {
      throw fault(e);
    }
  }

  public UserInfo setPassword(Caller caller, String name, String password)
      throws AccessDeniedFault, UserAccountFault {
    requireAdministrator(caller, "set passwords");
    try {
      users.setPassword(name, required("password", password));
      log.info("password of user {} changed by {}", name, caller.name());
      return info(users.find(name).orElseThrow());
    } catch (AccountRuleException e) {
      throw fault(e);
    }
  }

  public UserInfo setRole(Caller caller, String name, String role)
      throws AccessDeniedFault, UserAccountFault {
    requireAdministrator(caller, "change roles");
    try {
      UserInfo changed = info(users.setRole(name, role(role)));
      log.info("user {} made {} by {}", name, changed.role, caller.name());
      return changed;
    } catch (AccountRuleException e) {
      throw fault(e);
    }
  }

  public UserInfo setOsAccount(Caller caller, String name, String osAccount)
      throws AccessDeniedFault, UserAccountFault {
    requireAdministrator(caller, "map OS accounts");
    try {
      UserInfo changed = info(users.setOsAccount(name, blankToNull(osAccount)));
      log.info(
          "jobs of user {} run as {} (set by {})",
          name,
          changed.osAccount == null ? "jobs.default-os-account" : changed.osAccount,
          caller.name());
      return changed;
    } catch (AccountRuleException e) {
      throw fault(e);
    }
  }

  private static void requireAdministrator(Caller caller, String what) throws AccessDeniedFault {
    if (!caller.admin()) {
      String message = "only administrators may " + what;
      throw new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
    }
  }

  private static UserAccount.Role role(String role) {
    if (!"admin".equals(role) && !"user".equals(role)) {
      throw new InvalidArgumentException("role", "is admin or user, not " + role);
    }
    return UserAccount.Role.of(role);
  }

  private static char[] required(String argument, String value) {
    if (value == null) {
      throw new InvalidArgumentException(argument, "is required");
    }
    return value.toCharArray();
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  private static UserInfo info(UserAdministration.Entry e) {
    return new UserInfo(e.name(), e.role() == null ? null : e.role().value(), e.osAccount());
  }

  private static UserAccountFault fault(AccountRuleException e) {
    return new UserAccountFault(
        e.getMessage(), new FaultDetail(e.kind().code(), e.getMessage(), null, null));
  }
}
