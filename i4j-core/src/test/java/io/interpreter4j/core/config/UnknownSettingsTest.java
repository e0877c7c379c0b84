package io.interpreter4j.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UnknownSettingsTest {

  private static final Config REFERENCE = ConfigFactory.parseString("""
      interpreter4j {
        model = ""
        execution { timeout = 120s, max-output = 4000 }
        approval.rules { deny = [], allow = [] }
        languages { }
      }
      """);

  private static List<String> unknown(String layer) {
    return UnknownSettings.find(ConfigFactory.parseString(layer), REFERENCE).stream()
        .map(UnknownSettings.Unknown::key).toList();
  }

  @Test
  void knownKeysListsAndFreeBlocksPass() {
    assertEquals(List.of(), unknown("""
        interpreter4j { model = "m", execution.timeout = 5s, approval.rules.deny = ["bash:rm *"]
          languages.lua { command = ["lua", "{file}"], aliases = ["luajit"] } }
        description = "outside the root is not ours to judge"
        """));
  }

  @Test
  void misspelledAndMisplacedKeysAreFoundWithTheirClosestKnownKey() {
    List<UnknownSettings.Unknown> found = UnknownSettings.find(ConfigFactory.parseString(
        "interpreter4j { executoin.timeout = 5s, timeout = 5s, zebra = 1 }"), REFERENCE);
    assertEquals(List.of("executoin.timeout", "timeout", "zebra"),
        found.stream().map(UnknownSettings.Unknown::key).sorted().toList());
    for (UnknownSettings.Unknown u : found) {
      switch (u.key()) {
        case "executoin.timeout", "timeout" -> assertEquals("execution.timeout", u.closest());
        default -> assertNull(u.closest(), "nothing near 'zebra'");
      }
    }
  }

  @Test
  void theClosestKeyIsNamedOnlyWhenNearEnough() {
    assertEquals("model", UnknownSettings.closest("modle", Set.of("model", "workdir")));
    assertNull(UnknownSettings.closest("zebra", Set.of("model", "workdir")));
  }
}
