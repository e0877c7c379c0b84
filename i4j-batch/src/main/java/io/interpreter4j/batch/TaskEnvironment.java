package io.interpreter4j.batch;

import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.time.Duration;
import java.util.function.Function;

/**
 * What every task's session is made from.
 *
 * @param models         model spec -> a provider for one new session (called once per task)
 * @param host           host facts for the system prompt; the working directory is the task's
 * @param defaultTimeout wall-clock limit of a task without {@code timeout_s}
 */
public record TaskEnvironment(TaskSettings settings, Function<String, ModelProvider> models, HostInfo host,
                              Duration defaultTimeout) {}
