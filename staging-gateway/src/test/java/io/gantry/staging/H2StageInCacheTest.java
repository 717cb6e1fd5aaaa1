package io.gantry.staging;

class H2StageInCacheTest extends StageInCacheContract {
  @Override
  TestDatabase database() {
    return TestDatabase.h2();
  }
}
