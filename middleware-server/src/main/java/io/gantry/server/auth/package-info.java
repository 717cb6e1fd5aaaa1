/**
 * How a user is known and logs in: {@link io.gantry.server.auth.UserAuthenticator} checks a
 * password or session token against {@link io.gantry.server.auth.UserAccount}s in the job store.
 * Part of the server's public face: the web application's form login uses it.
 */
package io.gantry.server.auth;
