package io.interpreter4j.cli;

import io.interpreter4j.core.safety.ChildEnvironment;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.safety.SecretRedactor;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code i4j doctor} reports: each protection of the code a model writes (the sandbox of auto-run code and of
 * approved code, the network, the masked paths, the danger analysis, the approval rules, secret redaction, isolated
 * installs), whether it is active here, and how to get the ones that are not. Built from the configuration and one
 * probe of the sandbox; printed as text or JSON.
 *
 * @param protections the rows, in the order they are shown
 * @param sandbox     the sandbox's facts: kind, the platform's sandbox and its probe, per mode, network, masks
 * @param advice      how to get what is missing, one line each
 */
record ProtectionReport(List<Protection> protections, SandboxFacts sandbox, List<String> advice) {

  /** One protection: a short name, whether it is active, what it does here. */
  record Protection(String name, boolean active, String detail) {}

  /**
   * @param kind       the configured kind (auto-run, none, bwrap, ...)
   * @param platform   the sandbox the kind names here (bwrap, seatbelt, docker, none)
   * @param problem    why that sandbox cannot run here, if it cannot
   * @param autoRun    the sandbox of code that runs without asking
   * @param ask        the sandbox of code a person approves
   * @param network    whether sandboxed code may use the network
   * @param masked     the masked paths, as a person reads them
   * @param present    those of them that exist here (and where their links lead)
   */
  record SandboxFacts(String kind, String platform, Optional<String> problem, String autoRun, String ask,
                      boolean network, List<String> masked, List<String> present) {}

  static ProtectionReport of(Containment containment, Settings settings, int denyRules, int askRules, int allowRules,
                             VenvMode venv, Map<String, String> env) {
    SandboxSettings.Kind kind = containment.settings().kind();
    Sandbox platform = containment.platformSandbox();
    Optional<String> problem = kind == SandboxSettings.Kind.NONE ? Optional.empty() : platform.availability();
    String autoRun = containment.forAutoRun().name();
    String ask = containment.forAsk().name();
    boolean network = containment.settings().network();
    SandboxFacts facts = new SandboxFacts(kind.configName(), platform.name(), problem, autoRun, ask, network,
        containment.masked().display(env), new MaskedPaths(containment.masked().present()).display(env));

    List<Protection> rows = new ArrayList<>();
    List<String> advice = new ArrayList<>();
    boolean confined = !"none".equals(autoRun);
    if (confined) {
      rows.add(new Protection("sandbox", true, autoRun + " for code that runs without asking (-y, autoRun sessions, "
          + "batches with -y): the probe passed; it writes only in the working folder, its session's folder and a "
          + "private /tmp, the rest is read-only"));
    } else if (kind == SandboxSettings.Kind.NONE) {
      rows.add(new Protection("sandbox", false, "off (interpreter4j.sandbox.kind = none or --sandbox=none): code that "
          + "runs without asking runs unconfined"));
      advice.add("sandbox auto-run code: drop --sandbox=none, or set interpreter4j.sandbox.kind = auto-run");
    } else {
      rows.add(new Protection("sandbox", false, platform.name() + " cannot run here: " + problem.orElse("")));
      advice.add(fix(platform.name(), problem.orElse("")));
    }
    if (!"none".equals(ask)) {
      rows.add(new Protection("approved code", true, "runs in " + ask + " too"));
    } else {
      rows.add(new Protection("approved code", false, "runs unconfined: a person approves each block"
          + (kind == SandboxSettings.Kind.AUTO_RUN ? " (interpreter4j.sandbox.kind = auto sandboxes it too)" : "")));
    }
    boolean anySandbox = confined || !"none".equals(ask);
    rows.add(new Protection("network", anySandbox && !network, !anySandbox ? "not confined (no sandbox runs)"
        : network ? "on for sandboxed code (--sandbox-network=off cuts it; pip then installs only from local files)"
        : "off for sandboxed code: no connections, not even to this machine's services"));
    rows.add(new Protection("masked paths", anySandbox && !facts.masked().isEmpty(), facts.masked().size()
        + " paths " + (anySandbox ? "hidden from" : "would be hidden from") + " sandboxed code (~/.ssh, ~/.aws, "
        + "~/.kube, ..., browser profiles, interpreter4j's own folders; --json lists them, "
        + "interpreter4j.sandbox.masked-paths adds more); present here: "
        + (facts.present().isEmpty() ? "none" : String.join(", ", facts.present()))));
    rows.add(new Protection("danger analysis", !settings.dangerouslyAllowAll(), settings.dangerouslyAllowAll()
        ? "bypassed (--dangerously-allow-all): high-risk blocks run without asking"
        : "on: every block is rated; a high-risk one is asked about in a terminal and refused elsewhere"));
    if (settings.dangerouslyAllowAll()) {
      advice.add("let the danger analysis stop high-risk blocks: drop --dangerously-allow-all");
    }
    boolean rules = denyRules + askRules + allowRules > 0;
    rows.add(new Protection("approval rules", rules, denyRules + " deny, " + askRules + " ask, " + allowRules
        + " allow (interpreter4j.approval.rules)"));
    if (!rules) {
      advice.add("deny or ask about what must never run unattended: interpreter4j.approval.rules { deny = [...], "
          + "ask = [...] } (docs/safety.md)");
    }
    int values = SecretRedactor.fromEnvironment(env).knownValues();
    rows.add(new Protection("secret redaction", true, "on: known token formats and " + values + " secret value"
        + (values == 1 ? "" : "s") + " of the environment become " + SecretRedactor.REDACTED + " in events, "
        + "journals and what the model sees"));
    List<String> withheld = env.keySet().stream()
        .filter(ChildEnvironment::isWithheld).filter(name -> !settings.passEnv().contains(name)).sorted().toList();
    rows.add(new Protection("inherited secrets", settings.passEnv().stream().noneMatch(ChildEnvironment::isWithheld),
        "interpreters do not inherit interpreter4j's I4J_* variables or model API keys"
        + (withheld.isEmpty() ? "" : " (withheld here: " + String.join(", ", withheld) + ")")
        + (settings.passEnv().isEmpty() ? "" : "; passed on purpose (interpreter4j.execution.pass-env): "
            + String.join(", ", settings.passEnv()))));
    if (settings.passEnv().stream().anyMatch(ChildEnvironment::isWithheld)) {
      advice.add("code can read the secrets named in interpreter4j.execution.pass-env: pass them only if blocks need them");
    }
    boolean isolated = venv == VenvMode.AUTO;
    rows.add(new Protection("isolated installs", isolated, isolated
        ? "on: pip installs go to the working folder's .venv, never to the system's python"
        : "off (interpreter4j.python.venv = off): pip installs where the interpreter says"));
    if (!isolated) {
      advice.add("keep pip installs in the working folder: interpreter4j.python.venv = auto");
    }
    if (confined && network) {
      advice.add("keep sandboxed code off the network: --sandbox-network=off (interpreter4j.sandbox.network = false)");
    }
    return new ProtectionReport(List.copyOf(rows), facts, List.copyOf(advice));
  }

  /** How to get a sandbox that cannot run: the install command where it is missing, else the reason's own fix. */
  static String fix(String sandbox, String problem) {
    if (problem.startsWith("bwrap not found")) {
      return "install bubblewrap: apt-get install bubblewrap (dnf install bubblewrap, pacman -S bubblewrap)";
    }
    return "get the " + sandbox + " sandbox working: " + problem;
  }

  String text() {
    StringBuilder sb = new StringBuilder("i4j doctor: what protects this machine from the code a model writes\n\n");
    for (Protection p : protections) {
      sb.append(String.format("  %s %-18s %s%n", p.active() ? "✓" : "-", p.name(), p.detail()));
    }
    if (!advice.isEmpty()) {
      sb.append("\nTo get the others:\n");
      advice.forEach(a -> sb.append("  - ").append(a).append('\n'));
    }
    return sb.toString();
  }

  ObjectNode json() {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    ObjectNode box = root.putObject("sandbox");
    box.put("kind", sandbox.kind());
    box.put("platform", sandbox.platform());
    box.put("probe", "none".equals(sandbox.platform()) && sandbox.problem().isEmpty() ? "not run"
        : sandbox.problem().isPresent() ? "failed" : "passed");
    if (sandbox.problem().isPresent()) {
      box.put("problem", sandbox.problem().get());
    }
    box.put("auto_run", sandbox.autoRun());
    box.put("ask", sandbox.ask());
    box.put("network", sandbox.network());
    ArrayNode masked = box.putArray("masked_paths");
    sandbox.masked().forEach(masked::add);
    ArrayNode present = box.putArray("masked_present");
    sandbox.present().forEach(present::add);
    ArrayNode rows = root.putArray("protections");
    for (Protection p : protections) {
      rows.addObject().put("name", p.name()).put("active", p.active()).put("detail", p.detail());
    }
    ArrayNode tips = root.putArray("advice");
    advice.forEach(tips::add);
    return root;
  }
}
