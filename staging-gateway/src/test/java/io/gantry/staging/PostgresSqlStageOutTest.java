package io.gantry.staging;

class PostgresSqlStageOutTest extends SqlStageOutContract {
  @Override
  TestDatabase database() {
    return TestDatabase.postgres();
  }
}
