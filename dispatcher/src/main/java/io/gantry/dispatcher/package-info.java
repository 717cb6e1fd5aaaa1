/**
 * The dispatcher: launches node programs and supervises them.
 *
 * <p>The server turns a job description into a {@link io.gantry.dispatcher.LaunchSpec} and hands
 * it to a {@link io.gantry.dispatcher.Launcher}: {@link io.gantry.dispatcher.LocalMpirunLauncher}
 * for MPI jobs (through {@link io.gantry.dispatcher.MpirunCommand}),
 * {@link io.gantry.dispatcher.PosixLauncher} for plain programs, and later a Slurm backend. Every
 * command is an argument array; no shell ever parses a job's words. This module does not depend on
 * the JSDL model.
 */
package io.gantry.dispatcher;
