package io.gantry.staging.internal.steps;

import io.gantry.staging.GatewayOptions;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.StagingException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retry loop every transfer step shares (URI schemes, scp and sftp):
 *
 * <ol>
 *   <li>up to the gateway's {@code connectAttempts} attempts, each from the start, with {@link
 *       Backoff} before each retry and a cancellation check before each attempt;
 *   <li>a broken stream to a remote job directory ({@link BrokenStreamException}) is retried like a
 *       dropped source connection: the output was never published, so the step starts over;
 *   <li>a failure that cannot heal ({@link AttemptFailure#retryable()} false), an I/O error on the
 *       job directory's side or a bad argument ends the step at once;
 *   <li>the final message says how many attempts failed and why the last one did.
 * </ol>
 */
public final class RetriedAttempts {
  private static final Logger LOG = LoggerFactory.getLogger(RetriedAttempts.class);

  private RetriedAttempts() {}

  /** One attempt of the step, from the start. */
  @FunctionalInterface
  public interface Attempt {
    ManifestRecord run() throws AttemptFailure, IOException, InterruptedException;
  }

  public static ManifestRecord run(
      String label, GatewayOptions options, StepContext context, Attempt attempt)
      throws StagingException, InterruptedException {
    AttemptFailure last = null;
    for (int n = 1; n <= options.connectAttempts(); n++) {
      if (n > 1) {
        LOG.warn(
            "{}: attempt {} of {} failed, retrying: {}",
            label,
            n - 1,
            options.connectAttempts(),
            last.getMessage());
        Backoff.sleepBefore(n, options.retryBackoff());
      }
      context.checkCancelled();
      try {
        return attempt.run();
      } catch (AttemptFailure f) {
        if (!f.retryable()) {
          throw new StagingException(label, f.getMessage(), f);
        }
        last = f;
      } catch (BrokenStreamException e) {
        last = new Broken(e);
      } catch (IOException | IllegalArgumentException e) {
        throw new StagingException(label, e.getMessage(), e);
      }
    }
    throw new StagingException(
        label,
        "failed after " + options.connectAttempts() + " attempts: " + last.getMessage(),
        last);
  }

  private static final class Broken extends AttemptFailure {
    private static final long serialVersionUID = 1L;

    Broken(BrokenStreamException e) {
      super(e.getMessage(), e, true);
    }
  }
}
