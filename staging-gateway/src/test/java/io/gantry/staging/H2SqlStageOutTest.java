package io.gantry.staging;

class H2SqlStageOutTest extends SqlStageOutContract {
  @Override
  TestDatabase database() {
    return TestDatabase.h2();
  }
}
