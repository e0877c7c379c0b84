package io.interpreter4j.batch;

import com.typesafe.config.Config;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.util.Map;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The running program a batch lives in.
 *
 * @param system the actor system; the batch job runs as a system actor in it
 * @param config the loaded configuration (flags, environment, file, defaults); each task's settings derive from it
 * @param env    environment variables, for settings
 * @param models model spec -> a provider for one new session, called once per task (replay cassettes are
 *               replayed per session); throwing ends that task as {@code error}
 * @param host   host facts for the system prompt
 */
public record BatchContext(ActorSystem<?> system, Config config, Map<String, String> env,
                           Function<String, ModelProvider> models, HostInfo host) {}
