package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.Test;

/** The batch's actor system: Pekko's serialization is left to first use, every other start-up extension kept. */
class CliBatchEnvironmentTest {

  @Test
  void theSerializationExtensionIsNoLongerLoadedAtStartAndTheOthersAre() {
    Config loaded = ConfigFactory.load();
    List<String> before = loaded.getStringList("pekko.library-extensions");
    assertTrue(before.contains(CliBatchEnvironment.SERIALIZATION_EXTENSION), "Pekko loads it eagerly: " + before);

    List<String> after = CliBatchEnvironment.withoutEagerSerialization(loaded).getStringList("pekko.library-extensions");
    List<String> expected = new ArrayList<>(before);
    expected.remove(CliBatchEnvironment.SERIALIZATION_EXTENSION);
    assertEquals(expected, after);
    assertFalse(expected.isEmpty(), "the receptionist, the materializer and the typed extensions stay");
  }

  @Test
  void aSystemStartedSoStillSerializesWhenAskedTo() throws Exception {
    Config config = CliBatchEnvironment.withoutEagerSerialization(ConfigFactory.load());
    ActorSystem<?> system = CliSession.startSystem(config);
    try {
      var serialization = org.apache.pekko.serialization.SerializationExtension.get(system);
      byte[] bytes = serialization.serialize("text").get();
      assertEquals("text", serialization.deserialize(bytes, String.class).get());
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
