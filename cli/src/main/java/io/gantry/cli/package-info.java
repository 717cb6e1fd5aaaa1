/** The gantry command-line toolkit. */
package io.gantry.cli;
