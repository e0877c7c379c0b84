package io.interpreter4j.api;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The replay cassettes of these tests (src/test/resources/cassettes) as model names. */
final class Cassettes {

  private Cassettes() {}

  /** {@code replay:/abs/path/NAME.json}. */
  static String model(String name) {
    try {
      return "replay:" + Path.of(Cassettes.class.getResource("/cassettes/" + name + ".json").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A builder for these tests: the cassette's model, folders of the test's own, no sandbox (the sandboxes have their
   * own tests), and an environment without the user's I4J_* settings.
   */
  static Interpreter.Builder builder(String cassette, Path tmp) {
    return Interpreter.builder()
        .model(model(cassette))
        .workdir(tmp)
        .dataDir(tmp.resolve(".i4j-data"))
        .sandbox(Sandbox.NONE)
        .configFile(null)
        .environment(java.util.Map.of("PATH", System.getenv("PATH"), "HOME", System.getProperty("user.home")));
  }
}
