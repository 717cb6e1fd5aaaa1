package io.gantry.server.internal.notify;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.StandardStagingSettings;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import java.io.IOException;
import java.time.Clock;

/** Starts the delivery of notifications with the server's settings (configuration.md). */
public final class Notifications {
  private Notifications() {}

  /**
   * Starts the delivery thread; close it to stop. Receivers' and the SMTP server's certificates are
   * checked against staging.trust-store (the JDK's when unset), as https staging's are.
   *
   * @param source the CloudEvents source of this server's events (its job-management URL)
   */
  public static NotificationDelivery start(ServerConfig config, JdbcJobStore store, String source)
      throws IOException {
    ServerConfig.Notifications settings = config.notifications();
    SigningKey key = SigningKey.loadOrCreate(settings.signingKeyFile());
    WebhookSender webhooks =
        new WebhookSender(
            settings.allowedHosts(),
            key,
            StandardStagingSettings.policy(config.standardStaging()).trustStore(),
            Clock.systemUTC());
    MailSender mail =
        new MailSender(
            settings.mail(),
            StandardStagingSettings.policy(config.standardStaging()).trustStore(),
            settings.publicUrl() != null ? settings.publicUrl() : source);
    NotificationDelivery delivery =
        new NotificationDelivery(
            store.outbox(),
            store,
            store.subscriptions(),
            webhooks,
            mail,
            source,
            settings.maxAge(),
            settings.firstRetry(),
            Clock.systemUTC());
    delivery.start();
    return delivery;
  }
}
