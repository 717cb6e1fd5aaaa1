/**
 * Notifications (docs/operations.md, "Notifications"): the delivery thread that sends the job
 * store's outbox events as signed CloudEvents to the HTTPS webhooks their jobs subscribe.
 */
package io.gantry.server.internal.notify;
