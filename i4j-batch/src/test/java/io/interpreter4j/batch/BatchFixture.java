package io.interpreter4j.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.interpreter4j.batch.cli.ReplayBatchEnvironment;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Task files, cassettes and configuration for batch tests in a temporary folder; sessions are real (the replay
 * model, real bash and python processes).
 */
public final class BatchFixture {
  public static final HostInfo HOST = new HostInfo("Linux", "test", "amd64", "tester", "/tmp", "/bin/bash", "3",
      List.of("python", "bash"));
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Cassettes of the kinds of task a batch meets, and the status each ends with. */
  static final Map<String, String> KINDS = Map.of(
      "ok", "done", "heal", "done", "talk", "done", "fail", "gave_up", "hang", "timeout", "offscript", "failed");

  public final Path root;
  public final Path data;
  public final Path work;
  public final Map<String, String> env;

  public BatchFixture(Path root) throws IOException {
    this.root = root;
    this.data = Files.createDirectories(root.resolve("data"));
    this.work = Files.createDirectories(root.resolve("work"));
    this.env = Map.of("XDG_CONFIG_HOME", root.resolve("no-config").toString(), "I4J_HOME", data.toString());
    writeCassettes();
  }

  private void writeCassettes() throws IOException {
    cassette("ok", turn(null, "Checking.\n\n```bash\necho ok\n```\n"),
        turn("Block 1 \\(bash\\) finished with exit code 0\\.\\nOutput:\\n```output\\nok\\n", "All good."));
    cassette("heal", turn(null, "```python\nnumbers = [3, 5, 8, 13]\nprint('mean:', statistics.mean(numbers))\n```"),
        turn("NameError: name 'statistics' is not defined",
            "Fixing.\n```python\nimport statistics\nprint('mean:', statistics.mean(numbers))\n```"),
        turn("mean: 7\\.25", "The mean is 7.25."));
    cassette("talk", turn(null, "Nothing to run: the answer is 42."));
    cassette("fail", turn(null, "```bash\nls /no/such/folder\n```"),
        turn("exit code 2", "```bash\nls /no/such/folder\n```"), turn(null, "never reached"));
    cassette("hang", turn(null, "Waiting.\n\n```bash\nsleep 1000\n```\n"), turn(null, "never reached"));
    cassette("offscript", turn("a message nobody sends", "never reached"));
    cassette("marker",
        turn(null, "```bash\nif [ -f retry-marker ]; then echo second; else touch retry-marker; echo first; fi\n```"),
        turn("second", "It worked the second time."));
    cassette("sleepy", turn(null, "```bash\nsleep 2; echo rested\n```"), turn("rested", "Rested."));
  }

  public static ObjectNode turn(String expect, String reply) {
    ObjectNode t = JSON.createObjectNode();
    if (expect != null) {
      t.put("expect", expect);
    }
    t.put("reply", reply);
    t.put("chunk_chars", 64);
    return t;
  }

  public Path cassette(String name, ObjectNode... turns) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("turns");
    for (ObjectNode t : turns) {
      array.add(t);
    }
    Path file = this.root.resolve(name + ".json");
    Files.writeString(file, root.toString());
    return file;
  }

  /** A JSONL task line: {@code kind} names a cassette of this fixture; extra fields follow. */
  public static String task(String id, String kind, Object... extra) {
    ObjectNode t = JSON.createObjectNode();
    t.put("id", id);
    t.put("prompt", "task " + id + " (" + kind + ")");
    t.put("cassette", kind + ".json");
    for (int i = 0; i < extra.length; i += 2) {
      t.set((String) extra[i], JSON.valueToTree(extra[i + 1]));
    }
    return t.toString();
  }

  public Path taskFile(String name, List<String> lines) throws IOException {
    Path file = root.resolve(name);
    Files.writeString(file, String.join("\n", lines) + "\n");
    return file;
  }

  public Config config() {
    Map<String, Object> flags = new HashMap<>();
    flags.put("interpreter4j.workdir", work.toString());
    flags.put("interpreter4j.model-retry.min-backoff", "10ms");
    return ConfigLoader.load(null, flags, env);
  }

  ActorSystem<Void> system() {
    return ActorSystem.create(Behaviors.empty(), "batch-test", ReplayBatchEnvironment.QUIET.withFallback(config()));
  }

  BatchContext context(ActorSystem<?> system) {
    return new BatchContext(system, config(), env, BatchFixture::models, HOST);
  }

  /** Replay cassettes; {@code crash:} a provider that throws as the session starts; anything else is unknown. */
  public static ModelProvider models(String spec) {
    if (spec.startsWith("crash:")) {
      return new ModelProvider() {
        @Override
        public String name() {
          throw new IllegalStateException("this provider crashes the session that uses it");
        }

        @Override
        public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
          return Source.empty();
        }
      };
    }
    return ReplayBatchEnvironment.replay(spec);
  }

  BatchOptions options(Path tasks, Path out, int parallel, boolean yes, boolean retryFailed) {
    return new BatchOptions(tasks, out, root.resolve("journal"), parallel, yes, retryFailed,
        BatchOptions.DEFAULT_TIMEOUT, 0);
  }

  static List<BatchTask> parse(Path file) throws IOException {
    TaskFileParser.ParseResult r = TaskFileParser.parse(file);
    assertTrue(r.valid(), r.errors().toString());
    return r.tasks();
  }

  /** The results file by task id, asserting that each task appears once and every line is whole. */
  public static Map<String, TaskResult> results(Path out) throws IOException {
    String text = Files.readString(out);
    assertTrue(text.isEmpty() || text.endsWith("\n"), "the last line is whole");
    Map<String, TaskResult> byId = new LinkedHashMap<>();
    List<String> duplicates = new ArrayList<>();
    for (String line : text.lines().toList()) {
      TaskResult r = TaskResult.fromJsonLine(line);
      if (byId.put(r.id(), r) != null) {
        duplicates.add(r.id());
      }
    }
    assertEquals(List.of(), duplicates, "tasks that appear more than once");
    return byId;
  }

  public static Map<String, String> statuses(Map<String, TaskResult> results) {
    Map<String, String> m = new LinkedHashMap<>();
    results.forEach((id, r) -> m.put(id, r.status().wireName()));
    return m;
  }
}
