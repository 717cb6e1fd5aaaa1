/**
 * Everything of gantry-server that is not its public face, in the order a job travels: {@code
 * service} (the operations behind the SOAP facade) -> {@code plan} -> {@code scheduler} -> {@code
 * pipeline} -> {@code compute}, with the job store ({@code jobstore}) beneath them. No other module
 * may use these packages (tests/architecture).
 */
package io.gantry.server.internal;
