/**
 * The OS account each user's jobs run under ({@link
 * io.gantry.server.internal.accounts.JobAccounts}), checked to be neither root nor the server's.
 */
package io.gantry.server.internal.accounts;
