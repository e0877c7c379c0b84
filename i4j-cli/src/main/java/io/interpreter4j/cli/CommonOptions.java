package io.interpreter4j.cli;

import io.interpreter4j.cli.render.inline.InlineImageMode;
import io.interpreter4j.core.config.DurationFlags;
import io.interpreter4j.core.image.Vision;
import io.interpreter4j.providers.tools.ToolCalling;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options every command that talks to a model shares ({@code serve} included); each one overrides a configuration
 * setting. The ones of a single conversation on this terminal are {@link ConversationOptions}'.
 */
public class CommonOptions {

  @Option(names = {"-m", "--model"}, paramLabel = "MODEL",
      description = "Model: replay:FILE (offline cassette), openai/NAME, anthropic/NAME, ollama/NAME, ... "
          + "Default: I4J_MODEL or the config file.")
  String model;

  @Option(names = "--api-base", paramLabel = "URL", description = "Base URL of the model's API (e.g. a local server).")
  String apiBase;

  @Option(names = "--api-key", paramLabel = "KEY", description = "API key (default: the provider's environment variable).")
  String apiKey;

  @Option(names = "--tool-calling", paramLabel = "on|off|auto", converter = ToolCallingConverter.class,
      description = "How the model sends code: on = calls of an execute tool, off = markdown code blocks, "
          + "auto = on for OpenAI, Anthropic, OpenRouter and Groq, off for local servers. Default: auto.")
  String toolCalling;

  @Option(names = "--vision", paramLabel = "on|off|auto", converter = VisionConverter.class,
      description = "Send the images a block shows to the model beside its result: on, off (a line "
          + "[image WxH FORMAT: PATH] only), or auto = for models known to accept images (gpt-4o*, claude-*, "
          + "llava*, ...: interpreter4j.vision.models). Default: auto.")
  String vision;

  /** {@code --record}: only the commands that hold one conversation offer it ({@link ConversationOptions}). */
  Path record;

  @Option(names = {"-y", "--yes"}, description = "Run code without asking (auto-approve).")
  boolean yes;

  @Option(names = "--dangerously-allow-all",
      description = "With -y, run even high-risk blocks without asking (deny rules still apply). See docs/safety.md.")
  boolean dangerouslyAllowAll;

  @Mixin SandboxOptions sandbox = new SandboxOptions();

  @Option(names = {"--computer", "--os"},
      description = "Let the model see the screen and use the mouse, keyboard and browser (computer.* in python; "
          + "a private Xvfb when $DISPLAY is not set). See docs/computer.md.")
  boolean computer;

  @Option(names = "--browser-headed",
      description = "With --computer, show the browser on the session's screen instead of running it headless. "
          + "See docs/computer.md#browser.")
  boolean browserHeaded;

  /** {@code --json}: see {@link ConversationOptions}. */
  boolean json;

  @Option(names = "--max-output", paramLabel = "CHARS", converter = MaxOutputConverter.class,
      description = "Characters of a block's output sent to the model (head and tail kept). Default: 4000.")
  Integer maxOutput;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Per-block timeout: seconds, or a duration like 90s, 5m. Default: 120s.")
  Duration timeout;

  @Option(names = "--max-iterations", paramLabel = "N", converter = IterationsConverter.class, description = "Model calls per message. Default: 30.")
  Integer maxIterations;

  @Option(names = "--workdir", paramLabel = "DIR", description = "Working directory of the code. Default: the current one.")
  Path workdir;

  @Option(names = "--custom-instructions", paramLabel = "TEXT", description = "Extra instructions for the system prompt.")
  String customInstructions;

  @Option(names = "--profile", paramLabel = "NAME",
      description = "Use a profile: $XDG_CONFIG_HOME/interpreter4j/profiles/NAME.conf (a model, flags, custom "
          + "instructions; 'i4j profiles' lists them). Default: I4J_PROFILE.")
  String profile;

  /** {@code --plain}: see {@link ConversationOptions}. */
  boolean plain;

  /** {@code --inline-images}: see {@link ConversationOptions}. */
  String inlineImages;

  @Option(names = "--config", paramLabel = "FILE",
      description = "HOCON config file (default: $XDG_CONFIG_HOME/interpreter4j/config.conf if present).")
  Path config;

  /** The flags that were given, as configuration paths. */
  Map<String, Object> overrides() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (model != null) {
      m.put("interpreter4j.model", model);
    }
    if (apiBase != null) {
      m.put("interpreter4j.api-base", apiBase);
    }
    if (toolCalling != null) {
      m.put("interpreter4j.providers.tool-calling", toolCalling);
    }
    if (vision != null) {
      m.put("interpreter4j.vision.mode", vision);
    }
    if (yes) {
      m.put("interpreter4j.approval.mode", "auto");
    }
    sandbox.addTo(m);
    if (computer) {
      m.put("interpreter4j.computer.enabled", true);
    }
    if (browserHeaded) {
      m.put("interpreter4j.browser.headed", true);
    }
    if (dangerouslyAllowAll) {
      m.put("interpreter4j.approval.dangerously-allow-all", true);
    }
    if (maxOutput != null) {
      m.put("interpreter4j.execution.max-output", maxOutput);
    }
    if (timeout != null) {
      m.put("interpreter4j.execution.timeout", timeout.toMillis() + "ms");
    }
    if (maxIterations != null) {
      m.put("interpreter4j.healing.max-iterations", maxIterations);
    }
    if (workdir != null) {
      m.put("interpreter4j.workdir", workdir.toAbsolutePath().normalize().toString());
    }
    if (customInstructions != null) {
      m.put("interpreter4j.custom-instructions", customInstructions);
    }
    if (inlineImages != null) {
      m.put(InlineImageMode.CONFIG_PATH, inlineImages);
    }
    return m;
  }

  /** Checks "on", "off" or "auto". */
  public static final class ToolCallingConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        return ToolCalling.parse(value).name().toLowerCase(java.util.Locale.ROOT);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not on, off or auto");
      }
    }
  }

  /** Checks "on", "off" or "auto" for {@code --vision}. */
  public static final class VisionConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        return Vision.parse(value).name().toLowerCase(java.util.Locale.ROOT);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not on, off or auto");
      }
    }
  }

  /** Checks "on", "off" or "auto" for {@code --inline-images}. */
  public static final class InlineImagesConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        return InlineImageMode.of(value).toString();
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not on, off or auto");
      }
    }
  }

  /** Parses "90" (seconds), "90s", "1500ms", "5m", "1h". */
  public static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return DurationFlags.parsePositive(value, picocli.CommandLine.TypeConversionException::new);
    }
  }

  /** A whole number of at least {@code min}, said in the flag's words when it is not. */
  abstract static class AtLeastConverter implements ITypeConverter<Integer> {
    private final int min;

    AtLeastConverter(int min) {
      this.min = min;
    }

    @Override
    public Integer convert(String value) {
      int n;
      try {
        n = Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a whole number");
      }
      if (n < min) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is less than " + min);
      }
      return n;
    }
  }

  /** {@code --max-output}: at least 200 characters (head and tail must both fit). */
  public static final class MaxOutputConverter extends AtLeastConverter {
    public MaxOutputConverter() {
      super(200);
    }
  }

  /** {@code --max-iterations}: at least one model call. */
  public static final class IterationsConverter extends AtLeastConverter {
    public IterationsConverter() {
      super(1);
    }
  }
}
