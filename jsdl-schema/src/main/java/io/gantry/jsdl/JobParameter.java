package io.gantry.jsdl;

import java.util.Optional;

/**
 * One parameter a job template declares ({@code gx:Parameters/gx:Parameter}).
 *
 * @param name referred to as <code>${name}</code> in the document's text and attributes
 * @param type what a value must be
 * @param defaultValue the value used when the submission gives none, in canonical form
 * @param description a line for the user (the wizard shows it beside the field)
 */
public record JobParameter(
    String name, ParameterType type, Optional<String> defaultValue, Optional<String> description) {}
