package io.interpreter4j.batch;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.config.Settings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings of one task's session: the batch's configuration with the task's own fields on top (working
 * directory, max iterations, model), and the approval mode forced to {@code auto} with {@code -y}, else
 * {@code ask}, which in a batch means nobody answers and such blocks end {@code blocked}.
 */
public final class TaskSettings {

  private final Config base;
  private final Map<String, String> env;
  private final boolean autoApprove;

  public TaskSettings(Config base, Map<String, String> env, boolean autoApprove) {
    this.base = base;
    this.env = Map.copyOf(env);
    this.autoApprove = autoApprove;
  }

  /** The batch's settings, before any task's fields. */
  public Settings batch() {
    return Settings.from(ConfigFactory.parseMap(overrides(null), "batch").withFallback(base), env);
  }

  public Settings forTask(BatchTask task) {
    return Settings.from(ConfigFactory.parseMap(overrides(task), "task " + task.id()).withFallback(base), env);
  }

  private Map<String, Object> overrides(BatchTask task) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("interpreter4j.approval.mode", autoApprove ? "auto" : "ask");
    if (task == null) {
      return m;
    }
    if (task.workdir() != null) {
      m.put("interpreter4j.workdir", task.workdir().toString());
    }
    if (task.maxIterations() != null) {
      m.put("interpreter4j.healing.max-iterations", task.maxIterations());
    }
    if (task.modelSpec() != null) {
      m.put("interpreter4j.model", task.modelSpec());
    }
    return m;
  }
}
