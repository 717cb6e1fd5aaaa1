/** gantry-server: SOAP job API, job store and meta-scheduler. */
package io.gantry.server;
