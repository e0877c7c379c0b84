package io.interpreter4j.batch.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.batch.BatchContext;
import io.interpreter4j.batch.BatchOptions;
import io.interpreter4j.batch.BatchRunner;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskFileParser;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.server.batch.BatchService;
import io.interpreter4j.server.hub.SessionHub;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * Batches run by a single {@code i4j serve}, in its own process, with the machinery of {@code i4j batch}
 * ({@link BatchRunner}): each batch has a folder {@code <data-dir>/batches/<id>/} with its options, its task file,
 * its journal and its results file. At start the service lists the batches found there; one that had not ended
 * (the server stopped or was killed) resumes from its journal: finished tasks keep their result, the others run.
 */
public final class LocalBatchService implements BatchService {

  /** Result lines given by one {@link #results} call at most; the client asks again from where it got to. */
  public static final int MAX_RESULT_LINES = 1000;
  /** Batches listed from earlier runs of the server, the newest. */
  public static final int EARLIER_BATCHES = 1000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ActorSystem<?> system;
  private final Config config;
  private final Map<String, String> env;
  private final Function<String, ModelProvider> models;
  private final HostInfo host;
  private final SessionHub hub;
  private final Settings settings;
  private final Path folder;
  private final Executor blocking;
  private final Consumer<String> log;
  private final Map<String, ServerBatch> batches = new LinkedHashMap<>();

  private LocalBatchService(ActorSystem<?> system, Config config, Map<String, String> env,
                            Function<String, ModelProvider> models, HostInfo host, SessionHub hub,
                            Consumer<String> log) {
    this.system = system;
    this.config = config;
    this.env = Map.copyOf(env);
    this.models = models;
    this.host = host;
    this.hub = hub;
    this.settings = Settings.from(config, env);
    this.folder = settings.dataDir().toAbsolutePath().normalize().resolve("batches");
    this.blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    this.log = log;
  }

  /**
   * Starts the service: lists the batches of earlier runs and resumes those that had not ended.
   *
   * @param config the server's configuration (each batch adds its {@code model} and {@code dangerously_allow_all})
   * @param models model spec -> a provider for one new session, as the server's own sessions get them
   * @param log    where to say what was resumed or could not be (the server's stderr)
   */
  public static LocalBatchService start(ActorSystem<?> system, Config config, Map<String, String> env,
                                        Function<String, ModelProvider> models, HostInfo host, SessionHub hub,
                                        Consumer<String> log) {
    LocalBatchService service = new LocalBatchService(system, config, env, models, host, hub, log);
    service.loadEarlier();
    return service;
  }

  @Override
  public CompletionStage<Accepted> submit(Submission submission) {
    return CompletableFuture.supplyAsync(() -> accept(submission), blocking);
  }

  @Override
  public CompletionStage<Optional<ObjectNode>> progress(String id) {
    return CompletableFuture.completedFuture(find(id).map(ServerBatch::toJson));
  }

  @Override
  public CompletionStage<Optional<List<String>>> results(String id, int from) {
    Optional<ServerBatch> batch = find(id);
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return CompletableFuture.supplyAsync(() -> {
      try {
        return Optional.of(ResultLines.read(batch.get().resultsFile(), from, MAX_RESULT_LINES));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the results of batch " + id + ": " + e.getMessage(), e);
      }
    }, blocking);
  }

  @Override
  public CompletionStage<List<ObjectNode>> list() {
    List<ServerBatch> all;
    synchronized (batches) {
      all = List.copyOf(batches.values());
    }
    return CompletableFuture.completedFuture(all.stream().map(ServerBatch::toJson).toList());
  }

  /** The folder of the batch's files. */
  public Optional<Path> folder(String id) {
    return find(id).map(b -> b.dir);
  }

  private Optional<ServerBatch> find(String id) {
    synchronized (batches) {
      return Optional.ofNullable(batches.get(id));
    }
  }

  private Accepted accept(Submission s) {
    Path base = s.baseDir() == null ? settings.workdir() : Path.of(s.baseDir());
    if (!Files.isDirectory(base)) {
      throw new Rejected(List.of(new Problem(0, "base_dir " + base + " is not a folder on the server (relative "
          + "workdir and cassette paths are resolved against it)")));
    }
    TaskFileParser.ParseResult parsed = TaskFileParser.parse(s.tasks(), base);
    List<Problem> problems = parsed.errors().stream().map(e -> new Problem(e.line(), e.message())).toList();
    if (!parsed.valid() && !s.skipInvalid()) {
      throw new Rejected(problems);
    }
    if (parsed.tasks().isEmpty()) {
      List<Problem> all = new ArrayList<>(problems);
      all.add(new Problem(0, "no tasks to run"));
      throw new Rejected(all);
    }
    try {
      Files.createDirectories(folder);
      Path dir;
      String id;
      while (true) {
        id = SessionIds.next();
        try {
          dir = Files.createDirectory(folder.resolve(id));
          break;
        } catch (FileAlreadyExistsException e) {
          // another batch started in the same second with the same random part: take another id
        }
      }
      BatchRecord record = BatchRecord.of(id, s);
      record.write(dir, s.tasks());
      ServerBatch batch = new ServerBatch(record, dir, hub, settings.dataDir(), parsed.invalidLines(), null, 0);
      synchronized (batches) {
        batches.put(id, batch);
      }
      run(batch, parsed);
      return new Accepted(id, parsed.tasks().size(), parsed.valid() ? List.of() : problems);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the batch in " + folder + ": " + e.getMessage(), e);
    }
  }

  /** Starts (or resumes) the batch's runner; its end writes {@code summary.json}. */
  private void run(ServerBatch batch, TaskFileParser.ParseResult parsed) throws IOException {
    BatchRecord r = batch.record;
    Map<String, Object> overrides = new LinkedHashMap<>();
    if (r.model() != null && !r.model().isBlank()) {
      overrides.put("interpreter4j.model", r.model());
    }
    if (r.allowAll()) {
      overrides.put("interpreter4j.approval.dangerously-allow-all", true);
    }
    Config batchConfig = ConfigFactory.parseMap(overrides, "batch " + r.id()).withFallback(config);
    BatchContext context = new BatchContext(system, batchConfig, env, models, host);
    BatchOptions options = new BatchOptions(batch.dir.resolve(BatchRecord.TASKS), batch.resultsFile(), batch.dir,
        r.parallel(), r.autoApprove(), false, r.taskTimeout(), parsed.invalidLines());
    BatchRunner runner;
    try {
      runner = BatchRunner.start(options, parsed.tasks(), context, List.of(batch));
    } catch (IOException | RuntimeException e) {
      batch.interrupted("cannot run: " + e.getMessage());
      throw e;
    }
    batch.running(runner);
    runner.warnings().forEach(w -> log.accept("batch " + r.id() + ": " + w));
    runner.completion().whenComplete((summary, failure) -> {
      if (failure == null) {
        try {
          BatchRecord.writeAtomically(batch.dir.resolve(BatchRecord.SUMMARY), summary.toJson() + "\n");
        } catch (IOException e) {
          log.accept("batch " + r.id() + ": cannot write its summary (it runs again at the next start, its "
              + "finished tasks kept): " + e.getMessage());
        }
        batch.done(summary);
      } else {
        Throwable cause = failure.getCause() != null && failure instanceof java.util.concurrent.CompletionException
            ? failure.getCause() : failure;
        batch.interrupted(cause.getMessage() + " (it resumes from its journal at the next start of the server)");
      }
    });
  }

  /** Lists the batches kept in the data folder; resumes those that had not ended. */
  private void loadEarlier() {
    if (!Files.isDirectory(folder)) {
      return;
    }
    List<Path> dirs;
    try (Stream<Path> listing = Files.list(folder)) {
      dirs = listing.filter(d -> Files.isRegularFile(d.resolve(BatchRecord.OPTIONS))).sorted().toList();
    } catch (IOException e) {
      log.accept("cannot list the batches in " + folder + ": " + e.getMessage());
      return;
    }
    dirs = dirs.subList(Math.max(0, dirs.size() - EARLIER_BATCHES), dirs.size());
    int resumed = 0;
    for (Path dir : dirs) {
      try {
        if (load(dir)) {
          resumed++;
        }
      } catch (IOException | RuntimeException e) {
        log.accept("cannot read the batch in " + dir + ": " + e.getMessage() + " (it is not listed)");
      }
    }
    if (resumed > 0) {
      log.accept("resumed " + resumed + " batch" + (resumed == 1 ? "" : "es") + " that had not ended, from "
          + "their journals in " + folder);
    }
  }

  /** Lists one batch folder; returns whether its batch was resumed. */
  private boolean load(Path dir) throws IOException {
    BatchRecord record = BatchRecord.read(dir);
    Path summaryFile = dir.resolve(BatchRecord.SUMMARY);
    Path results = dir.resolve(BatchRecord.RESULTS);
    if (Files.isRegularFile(summaryFile)) {
      BatchSummary summary = BatchSummary.fromJson(
          JSON.readTree(Files.readString(summaryFile, StandardCharsets.UTF_8)), results, dir);
      ServerBatch batch = new ServerBatch(record, dir, hub, settings.dataDir(), summary.invalid(),
          ServerBatch.fromSummary(summary), ResultLines.count(results));
      batch.done(summary);
      add(batch);
      return false;
    }
    Path base = record.baseDir() == null ? settings.workdir() : Path.of(record.baseDir());
    TaskFileParser.ParseResult parsed = TaskFileParser.parse(BatchRecord.tasks(dir), base);
    List<TaskResult> finished = new ArrayList<>();
    for (String line : ResultLines.read(results, 0, Integer.MAX_VALUE)) {
      try {
        finished.add(TaskResult.fromJsonLine(line));
      } catch (RuntimeException e) {
        // the journal decides what finished; this is only the listing of a batch that cannot go on
      }
    }
    ServerBatch batch = new ServerBatch(record, dir, hub, settings.dataDir(), parsed.invalidLines(),
        ServerBatch.fromResults(parsed.tasks().size(), finished), finished.size());
    add(batch);
    if ((!parsed.valid() && !record.skipInvalid()) || parsed.tasks().isEmpty()) {
      batch.interrupted("it had not ended when the server stopped, and its task file no longer checks on this "
          + "server: " + parsed.errors().stream().map(Object::toString).findFirst().orElse("no tasks"));
      log.accept("batch " + record.id() + " cannot resume: " + parsed.errors().size() + " problem(s) in its task "
          + "file now, first: " + parsed.errors().stream().map(Object::toString).findFirst().orElse("no tasks"));
      return false;
    }
    try {
      run(batch, parsed);
    } catch (IOException | RuntimeException e) {
      log.accept("batch " + record.id() + " cannot resume: " + e.getMessage());
      return false;
    }
    return true;
  }

  private void add(ServerBatch batch) {
    synchronized (batches) {
      batches.put(batch.id(), batch);
    }
  }
}
