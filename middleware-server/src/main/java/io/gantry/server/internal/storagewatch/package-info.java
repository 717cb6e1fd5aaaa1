/**
 * The storage watch ({@link io.gantry.server.internal.storagewatch.StorageWatch}): whether the data
 * directory, the job directories' root and the job store can be written, so the server refuses new
 * work while they cannot.
 */
package io.gantry.server.internal.storagewatch;
