package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GatewayOptionsTest {
  @Test
  void settingsOutOfRangeAreRefusedWithTheSettingsName() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> GatewayOptions.defaults().withBlockSize(70_000));
    assertEquals("blockSize must be between 1024 and 65280, not 70000", e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> GatewayOptions.defaults().withCompressionLevel(0));
    assertThrows(IllegalArgumentException.class, () -> GatewayOptions.defaults().withThreads(0, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> GatewayOptions.defaults().withRetries(Duration.ofMillis(10), 3, Duration.ZERO));
  }

  @Test
  void secretsNeverPrint() {
    DataSourceSpec spec =
        new DataSourceSpec(
            "market",
            "jdbc:postgresql://db/market?user=u&password=hunter2",
            "u",
            Secret.of("hunter2"));
    assertEquals(
        "DataSourceSpec['market' (jdbc:postgresql://db/market?user=u&password=***), user=u]",
        spec.toString());
    assertEquals("***", spec.password().toString());
    assertEquals("SshCredentials[password]", SshCredentials.password(Secret.of("x")).toString());
  }

  @Test
  void jsdlSpellingsMapOntoThePlanVocabulary() {
    assertEquals(CreationFlag.DONT_OVERWRITE, CreationFlag.fromJsdl("dontOverwrite"));
    assertEquals(RemoteTransfer.Direction.RECEIVE, RemoteTransfer.Direction.fromJsdl("receive"));
    assertThrows(IllegalArgumentException.class, () -> CreationFlag.fromJsdl("replace"));
    assertThrows(IllegalArgumentException.class, () -> DataSourceRef.inline(" ", null, null));
  }
}
