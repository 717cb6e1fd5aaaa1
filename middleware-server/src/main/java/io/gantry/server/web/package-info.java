/**
 * The hook the web application plugs into: {@link io.gantry.server.web.WebFace}, found with {@link
 * java.util.ServiceLoader}, gets a {@link io.gantry.server.web.WebFaceContext} (the job- management
 * facade acting for a user, the authenticator). Part of the server's public face.
 */
package io.gantry.server.web;
