package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** queue.classes, queue.default and queue.CLASS.users: read, defaulted, and refused by key. */
class QueueSettingsTest {
  private static ServerConfig.Queues load(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(Map.of("data.dir", "/tmp/gantry-queue-settings-test"));
    all.putAll(settings);
    return new ServerConfigLoader().load(null, all).queues();
  }

  @Test
  void oneNormalClassOpenToEveryoneByDefault() {
    assertEquals(new ServerConfig.Queues(List.of("normal"), "normal", Map.of()), load(Map.of()));
  }

  @Test
  void classesInOrderTheirUsersAndADefaultOfNormalOrElseTheLastClass() {
    ServerConfig.Queues q =
        load(
            Map.of(
                "queue.classes", "urgent, normal, batch",
                "queue.urgent.users", "alice bob",
                "queue.batch.users", ""));
    assertEquals(List.of("urgent", "normal", "batch"), q.classes());
    assertEquals("normal", q.defaultClass());
    assertEquals(Map.of("urgent", List.of("alice", "bob"), "batch", List.of()), q.users());
    assertEquals("low", load(Map.of("queue.classes", "high low")).defaultClass());
  }

  @Test
  void aWrongClassIsRefusedAtItsKey() {
    ConfigException badDefault =
        assertThrows(
            ConfigException.class,
            () -> load(Map.of("queue.classes", "urgent normal", "queue.default", "batch")));
    assertTrue(badDefault.getMessage().contains("queue.default"), badDefault.getMessage());
    ConfigException badUsers =
        assertThrows(ConfigException.class, () -> load(Map.of("queue.express.users", "alice")));
    assertTrue(badUsers.getMessage().contains("queue.express.users"), badUsers.getMessage());
    ConfigException twice =
        assertThrows(ConfigException.class, () -> load(Map.of("queue.classes", "a b a")));
    assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
  }
}
