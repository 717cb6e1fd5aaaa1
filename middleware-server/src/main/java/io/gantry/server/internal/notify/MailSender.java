package io.gantry.server.internal.notify;

import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.ServerConfig;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.Date;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Sends one event as a plain-text mail to one mailbox through notify.smtp-host (Jakarta Mail, the
 * Eclipse Angus implementation). STARTTLS is required: a server that does not offer it, or whose
 * certificate the trust store does not vouch for (host name included), gets no mail and no login,
 * and the event is retried as a webhook's is.
 */
final class MailSender {
  /**
   * Carries the event's id: the same on every delivery, so readers and filters can de-duplicate.
   */
  static final String EVENT_ID_HEADER = "Gantry-Event-Id";

  private static final int TIMEOUT_MS = 10_000;

  private final ServerConfig.Mail settings;
  private final MailRule rule;
  private final Session session;
  private final String source;
  private volatile Transport inFlight;

  /**
   * @param trustStore the CA certificates the SMTP server is checked against; null: the JDK's
   * @param source server.public-url, or the job-management URL, for the job page's link
   */
  MailSender(ServerConfig.Mail settings, KeyStore trustStore, String source) {
    this.settings = settings;
    this.rule = MailRule.of(settings.allowed());
    this.source = source;
    Properties p = new Properties();
    p.put("mail.smtp.host", String.valueOf(settings.smtpHost()));
    p.put("mail.smtp.port", Integer.toString(settings.smtpPort()));
    p.put("mail.smtp.starttls.enable", "true");
    p.put("mail.smtp.starttls.required", "true"); // never plain: no STARTTLS, no mail
    p.put("mail.smtp.ssl.checkserveridentity", "true");
    p.put("mail.smtp.ssl.protocols", "TLSv1.3 TLSv1.2");
    p.put("mail.smtp.auth", Boolean.toString(settings.smtpUser() != null));
    p.put("mail.smtp.connectiontimeout", Integer.toString(TIMEOUT_MS));
    p.put("mail.smtp.timeout", Integer.toString(TIMEOUT_MS));
    p.put("mail.smtp.writetimeout", Integer.toString(TIMEOUT_MS));
    if (trustStore != null) {
      p.put("mail.smtp.ssl.socketFactory", sslContext(trustStore).getSocketFactory());
    }
    this.session = Session.getInstance(p);
  }

  /** The sender of a server without notify.smtp-host: every mailbox is refused, none contacted. */
  static MailSender disabled(String source) {
    return new MailSender(
        new ServerConfig.Mail(
            java.util.List.of(), null, 587, null, new PasswordSource.None(), null),
        null,
        source);
  }

  /** Why {@code address} may not be sent to, or empty; a refused mailbox is never contacted. */
  Optional<String> refusal(String address) {
    if (settings.smtpHost() == null) {
      return Optional.of("mail to " + address + " not sent: notify.smtp-host is not set");
    }
    return rule.problem(address);
  }

  /**
   * Sends the event's summary; returns empty when the SMTP server accepted it, else what went wrong
   * (never the password).
   *
   * @throws InterruptedException when the server stops meanwhile
   */
  @SuppressWarnings("JavaUtilDate") // Jakarta Mail's API takes the sent date as a Date
  Optional<String> send(String address, io.gantry.server.internal.jobstore.OutboxEvent event)
      throws InterruptedException {
    char[] password = settings.smtpPassword().read();
    try {
      MimeMessage message = new EventMessage(session, event.id(), settings.from());
      message.setFrom(new InternetAddress(settings.from(), true));
      message.setRecipient(Message.RecipientType.TO, new InternetAddress(address, true));
      message.setSubject(MailText.subject(event), "UTF-8");
      message.setText(MailText.body(event, source), "UTF-8");
      message.setSentDate(new Date());
      message.setHeader(EVENT_ID_HEADER, event.id());
      Transport transport = session.getTransport("smtp");
      inFlight = transport;
      try {
        transport.connect(
            settings.smtpHost(),
            settings.smtpPort(),
            settings.smtpUser(),
            settings.smtpUser() == null ? null : new String(password));
        message.saveChanges();
        transport.sendMessage(message, message.getAllRecipients());
      } finally {
        inFlight = null;
        transport.close();
      }
      return Optional.empty();
    } catch (MessagingException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("the server stops");
      }
      return Optional.of(
          "mail to "
              + address
              + " via "
              + settings.smtpHost()
              + ":"
              + settings.smtpPort()
              + ": "
              + e.getMessage());
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /**
   * Abandons the mail in flight, if any (the server stops): closing the connection fails the send,
   * and the event stays undelivered for the next start.
   */
  void abort() {
    Transport transport = inFlight;
    if (transport != null) {
      try {
        transport.close();
      } catch (MessagingException e) {
        // closing a connection that is failing anyway
      }
    }
  }

  /**
   * A message whose Message-ID derives from the event's id, so a mail sent again after a retry or a
   * restart carries the same one.
   */
  private static final class EventMessage extends MimeMessage {
    private final String messageId;

    EventMessage(Session session, String eventId, String from) {
      super(session);
      String domain = from.substring(from.lastIndexOf('@') + 1).replaceAll("[^A-Za-z0-9.-]", "");
      this.messageId = "<" + eventId + ".gantry@" + domain + ">";
    }

    @Override
    protected void updateMessageID() throws MessagingException {
      setHeader("Message-ID", messageId);
    }
  }

  private static SSLContext sslContext(KeyStore trustStore) {
    try {
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trustStore);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the trust store cannot be used: " + e.getMessage(), e);
    }
  }
}
