package io.gantry.cli;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A terminal whose user types what the test scripted, in order; it records every prompt. */
final class ScriptedTerminal implements Terminal {
  final List<String> prompts = new ArrayList<>();
  private final Deque<String> answers;

  /** After the last answer, the user ends the input (Ctrl-D). */
  ScriptedTerminal(String... answers) {
    this.answers = new ArrayDeque<>(List.of(answers));
  }

  @Override
  public String readLine(String prompt) {
    prompts.add(prompt);
    return answers.poll();
  }

  @Override
  public char[] readPassword(String prompt) {
    prompts.add(prompt);
    String answer = answers.poll();
    return answer == null ? null : answer.toCharArray();
  }
}
