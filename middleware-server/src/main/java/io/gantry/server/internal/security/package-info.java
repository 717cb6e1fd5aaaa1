/**
 * The security mechanisms behind the login: password hashing, the login throttle, session tokens,
 * the first administrator, the TLS keystore and the password key pair clients encrypt with.
 */
package io.gantry.server.internal.security;
