package io.gantry.dispatcher.workersession;

/**
 * A completion message: how one submitted message ended.
 *
 * @param id the id {@link SessionDispatcher#submit} gave the message
 * @param state how it ended
 * @param output the worker's answer line, unescaped; empty unless answered
 * @param truncated the answer was longer than the session's message size and was cut off
 * @param attempts how many times it was given to a worker
 * @param worker the number (1, 2, ...) of the worker that answered it, or last had it
 */
public record Completion(
    long id, CompletionState state, String output, boolean truncated, int attempts, int worker) {}
