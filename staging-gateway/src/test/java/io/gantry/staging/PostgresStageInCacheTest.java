package io.gantry.staging;

class PostgresStageInCacheTest extends StageInCacheContract {
  @Override
  TestDatabase database() {
    return TestDatabase.postgres();
  }
}
