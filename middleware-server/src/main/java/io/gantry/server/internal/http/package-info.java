/**
 * The HTTP and SOAP transport: Jetty, TLS, authentication filters and interceptors, request limits
 * before authentication, and the SOAP faults' codes.
 */
package io.gantry.server.internal.http;
