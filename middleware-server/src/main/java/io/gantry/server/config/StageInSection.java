package io.gantry.server.config;

/**
 * The stage-in cache and batched binding (configuration.md, "Stage-in cache and batched binding").
 */
final class StageInSection {
  private StageInSection() {}

  static final Setting<Long> CACHE_MAX_BYTES =
      Setting.of("cache.max-bytes", SettingType.bytesOrZero())
          .byDefault("10G")
          .means("size limit of the stage-in cache; 0 turns it off");
  static final Setting<Integer> BIND_BATCH_ROWS =
      Setting.of("staging.bind-batch-rows", SettingType.integer(1, 10_000))
          .byDefault("100")
          .means("input rows of a bound SQL statement sent to PostgreSQL in one round trip");

  static ServerConfig.StageIn read(SettingValues values) {
    return new ServerConfig.StageIn(values.get(CACHE_MAX_BYTES), values.get(BIND_BATCH_ROWS));
  }
}
