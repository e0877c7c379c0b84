package io.interpreter4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A section's own settings reach its sessions: the sandbox it names, the data folder it gives. */
class SessionKitTest {

  @TempDir
  Path dir;

  @Test
  void theSectionsSandboxIsTheSessionsUnderAutoApproval() {
    Config none = SessionKit.config(dir.resolve("data"), dir, Map.of("interpreter4j.sandbox.kind", "none"));
    // auto-approval (SessionKit's) under the default auto-run would be bwrap: "none" must win
    assertEquals("none", SessionKit.containment(none).forMode(Settings.ApprovalMode.AUTO).name());
  }

  @Test
  void theActorSystemsConfigKeepsTheSectionsSettingsOverTheDefaults() {
    Config config = SessionKit.config(dir.resolve("data"), dir, Map.of("interpreter4j.sandbox.kind", "none"));
    Config system = Quiet.over(config);
    assertEquals("none", system.getString("interpreter4j.sandbox.kind"));
    assertEquals(dir.resolve("data").toString(), system.getString("interpreter4j.data-dir"));
    assertEquals("WARNING", system.getString("pekko.loglevel"));
  }
}
