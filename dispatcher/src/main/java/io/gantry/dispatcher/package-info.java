/**
 * The dispatcher: launches node programs and supervises them.
 *
 * <p>The server turns a job description into a {@link io.gantry.dispatcher.LaunchSpec} and hands it
 * to a {@link io.gantry.dispatcher.Launcher}: {@link io.gantry.dispatcher.LocalMpirunLauncher} for
 * MPI jobs (through {@link io.gantry.dispatcher.MpirunCommand}), {@link
 * io.gantry.dispatcher.PosixLauncher} for plain programs, {@link
 * io.gantry.dispatcher.HostsMpirunLauncher} for MPI jobs over SSH on listed hosts, and {@code
 * slurm.SlurmLauncher} for batch jobs on a Slurm cluster (local or over SSH). Task farms and worker
 * sessions ({@code farm}, {@code session}) share one launcher wire protocol ({@code
 * internal.wire}). Every command is an argument array; no shell ever parses a job's words. Every
 * program a job runs starts inside a bubblewrap sandbox under the job's own OS account ({@link
 * io.gantry.dispatcher.JobAccount}, {@link io.gantry.dispatcher.SandboxConfig}). From jsdl-schema
 * this module uses only the job language's policies ({@code MpirunOptionPolicy}, {@code
 * ReservedEnvironment}), which it checks again at launch; it does not use the JSDL model.
 */
package io.gantry.dispatcher;
