/**
 * The server's SSH user certificate authority (docs/security.md, "Jobs on other hosts"): one CA key
 * made at first start, and per job a fresh key pair with a short-lived OpenSSH user certificate for
 * the job's own account, so that every host a job reaches sees the job's user and no one else.
 */
package io.gantry.server.internal.sshca;
