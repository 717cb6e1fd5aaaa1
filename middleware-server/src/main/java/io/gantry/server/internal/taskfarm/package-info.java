/**
 * Task farms (docs/task-farms.md): a farm's launchers, its tasks, its journal and its resumption
 * after a restart.
 */
package io.gantry.server.internal.taskfarm;
