package io.gantry.cli;

import io.gantry.cli.soap.JobManagement;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A command that names one job, asks the server one thing about it and prints the answer: {@code
 * cancel}, {@code kill}, {@code hold}, {@code release}, {@code retry-stage-out} ({@link
 * JobChangeCommand}), {@code audit} and {@code definition}. Each subclass brings only its help
 * text, its SOAP operation and, where it differs, how the answer is printed.
 *
 * @param <T> the server's answer
 */
abstract class OneJobCommand<T> implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  /** The SOAP operation on {@link #jobId}. */
  abstract T ask(JobManagement server, String jobId) throws Exception;

  /** Prints the answer; returns the exit code. */
  abstract int print(PrintWriter out, T answer);

  @Override
  public final Integer call() {
    T answer = gantry.connect().call(server -> ask(server, jobId));
    return print(spec.commandLine().getOut(), answer);
  }
}
