package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;
import java.util.List;

/**
 * A standing notification subscription (docs/operations.md, "Subscriptions"): the events of the
 * owner's jobs and schedules, or of one schedule and its jobs, sent to one webhook or mailbox.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "NotifySubscription",
    propOrder = {"subscriptionId", "owner", "webhook", "mail", "event", "schedule", "created"})
public class NotifySubscriptionInfo {
  @XmlElement(required = true)
  public String subscriptionId;

  @XmlElement(required = true)
  public String owner;

  /** The webhook's https URL, shown without its query (which may carry a receiver's token). */
  public String webhook;

  /** The mailbox, for a mail subscription. */
  public String mail;

  /** Event types without their io.gantry. prefix (e.g. job.failed), or {@code *}. */
  @XmlElement(required = true)
  public List<String> event;

  /** The schedule it is limited to (its name), or absent for all of the owner's events. */
  public String schedule;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant created;
}
