/**
 * The stage-in cache's administration over the SOAP API: list its entries, clear one or all
 * (administrators only).
 */
package io.gantry.server.internal.stagein;
