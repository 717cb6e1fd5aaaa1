/**
 * The server's credentials: data sources' and SSH identities' secrets, and values encrypted for one
 * owner ({@link io.gantry.server.internal.credentials.OwnedSecret}), decrypted only at the moment
 * of use.
 */
package io.gantry.server.internal.credentials;
