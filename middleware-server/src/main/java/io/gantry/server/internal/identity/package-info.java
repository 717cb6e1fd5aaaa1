/**
 * Logins whose users live outside Gantry: an LDAP directory or Active Directory ({@link
 * io.gantry.server.internal.identity.LdapDirectory}) and an OIDC identity provider's access tokens
 * ({@link io.gantry.server.internal.identity.OidcAccessTokens}). Each implements a port of {@code
 * io.gantry.server.internal.security}, which decides logins; docs/security.md says how they are set
 * up.
 */
package io.gantry.server.internal.identity;
