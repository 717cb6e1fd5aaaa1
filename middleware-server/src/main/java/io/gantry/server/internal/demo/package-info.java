/**
 * The demo bank (docs/sample-var-job.md): a market database and an SSH host on loopback, made on
 * first start when the demo is on.
 */
package io.gantry.server.internal.demo;
