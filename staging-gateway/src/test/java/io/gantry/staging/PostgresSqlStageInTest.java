package io.gantry.staging;

class PostgresSqlStageInTest extends SqlStageInContract {
  @Override
  TestDatabase database() {
    return TestDatabase.postgres();
  }
}
