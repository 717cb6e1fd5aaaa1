/**
 * What an operator watches (docs/operations.md): the server's metrics in the Prometheus Java
 * client's registry, and the loopback operations listener serving them with /healthz and /readyz.
 * Labels are bounded: job states, data source names and staging schemes, never job ids, user names
 * or SQL text.
 */
package io.gantry.server.internal.metrics;
