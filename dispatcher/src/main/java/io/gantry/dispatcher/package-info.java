/** The dispatcher: launches node programs through mpirun and supervises them. */
package io.gantry.dispatcher;
