package io.gantry.staging.internal.steps;

import io.gantry.staging.StagingListener;
import java.util.concurrent.atomic.AtomicLong;

/** Rows and bytes so far over a whole plan, reported to the listener as steps add to them. */
public final class PlanProgress {
  private final StagingListener listener;
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  public PlanProgress(StagingListener listener) {
    this.listener = listener;
  }

  public StagingListener listener() {
    return listener;
  }

  public void add(long moreRows, long moreBytes) {
    listener.progress(rows.addAndGet(moreRows), bytes.addAndGet(moreBytes));
  }
}
