package io.gantry.cli;

/**
 * What {@code gantry login} keeps for the next commands: the server, the user name and the SHA-256
 * fingerprint of the server certificate the user confirmed (null over plain http). Never a
 * password: that stays in the user's head or in {@code GANTRY_PASSWORD}.
 */
record StoredLogin(String server, String user, String fingerprint) {}
