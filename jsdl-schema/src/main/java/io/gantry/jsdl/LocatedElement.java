package io.gantry.jsdl;

/**
 * An element of a parsed job description where the source text has it: its start tag's line and
 * column (1-based; 0 when unknown), its path as problems name it, and its text (stripped). For
 * checks made after parsing, such as what only the server knows (its data sources, its
 * applications), to point at the element as the parser's own problems do.
 */
public record LocatedElement(int line, int column, String path, String text) {}
