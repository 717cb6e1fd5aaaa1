/** Extended JSDL: parsing, validation and writing of Gantry job descriptions. */
package io.gantry.jsdl;
