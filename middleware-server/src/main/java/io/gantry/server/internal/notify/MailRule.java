package io.gantry.server.internal.notify;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which mailboxes jobs may name: one bare address (no display name, no list), itself or its domain
 * on notify.mail-allowed (an entry with {@code @} allows that address, one without allows every
 * address of exactly that domain, not its subdomains). Asked by the JSDL parser when a job is
 * submitted, and again before every mail.
 */
public final class MailRule {
  private final Set<String> allowed;

  private MailRule(Set<String> allowed) {
    this.allowed = allowed;
  }

  /** The rule of notify.mail-allowed. */
  public static MailRule of(List<String> allowed) {
    return new MailRule(
        allowed.stream().map(e -> e.toLowerCase(Locale.ROOT)).collect(Collectors.toSet()));
  }

  /** Why mail may not be sent to {@code address}, or empty; a refused mailbox gets no mail. */
  public Optional<String> problem(String address) {
    InternetAddress parsed;
    try {
      parsed = new InternetAddress(address, true);
      parsed.validate();
    } catch (AddressException e) {
      return Optional.of("'" + address + "' is not an e-mail address: " + e.getMessage());
    }
    String bare = parsed.getAddress();
    if (parsed.getPersonal() != null || !bare.equals(address.strip()) || !bare.contains("@")) {
      return Optional.of("'" + address + "' is not one bare e-mail address (user@domain)");
    }
    String lower = bare.toLowerCase(Locale.ROOT);
    String domain = lower.substring(lower.lastIndexOf('@') + 1);
    if (allowed.contains(lower) || allowed.contains(domain)) {
      return Optional.empty();
    }
    return Optional.of("mailbox " + bare + " is not on notify.mail-allowed");
  }
}
