package io.gantry.staging;

class H2SqlStageInTest extends SqlStageInContract {
  @Override
  TestDatabase database() {
    return TestDatabase.h2();
  }
}
