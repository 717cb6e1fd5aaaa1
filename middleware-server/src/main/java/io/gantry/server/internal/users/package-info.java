/**
 * The administrators' user operations and the session-token operations of the SOAP API: who may do
 * what with which account or token.
 */
package io.gantry.server.internal.users;
