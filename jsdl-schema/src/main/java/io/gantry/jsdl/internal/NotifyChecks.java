package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;

import io.gantry.jsdl.StagingPolicy;
import org.w3c.dom.Element;

/**
 * {@code gx:Notify}: each webhook and mailbox a job names must be one the server's operator allows,
 * so that a job with a webhook that would never be posted to is refused when submitted, at the
 * element.
 */
final class NotifyChecks {
  private final Findings findings;
  private final StagingPolicy policy;

  NotifyChecks(Findings findings, StagingPolicy policy) {
    this.findings = findings;
    this.policy = policy;
  }

  void check(Element root) {
    Element description = Dom.child(root, JSDL, "JobDescription");
    if (description == null) {
      return;
    }
    for (Element notify : Dom.children(description, GANTRY, "Notify")) {
      for (Element webhook : Dom.children(notify, GANTRY, "Webhook")) {
        policy
            .webhookProblem(Dom.text(webhook))
            .ifPresent(problem -> findings.error(webhook, problem));
      }
      for (Element mailbox : Dom.children(notify, GANTRY, "Mail")) {
        policy
            .mailboxProblem(Dom.text(mailbox))
            .ifPresent(problem -> findings.error(mailbox, problem));
      }
    }
  }
}
