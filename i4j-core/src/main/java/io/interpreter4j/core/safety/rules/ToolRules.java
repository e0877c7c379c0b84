package io.interpreter4j.core.safety.rules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rule families by the tools they judge: one lookup per command finds the families that care about it. The
 * language analyzers hand every command they understand here, however it was spelled (a bash line, a python argv,
 * a ruby backtick, an R system2 call).
 */
public final class ToolRules {

  private static final Map<String, List<RuleFamily>> BY_TOOL = index();

  private ToolRules() {}

  private static Map<String, List<RuleFamily>> index() {
    Map<String, List<RuleFamily>> map = new HashMap<>();
    register(map, new RemoteSystems(), RemoteSystems.TOOLS);
    register(map, new Databases(), Databases.TOOLS);
    register(map, new Machine(), Machine.TOOLS);
    register(map, new Processes(), Processes.TOOLS);
    register(map, new Accounts(), Accounts.TOOLS);
    register(map, new Containers(), Containers.TOOLS);
    register(map, new Persistence(), Persistence.TOOLS);
    register(map, new Overwrites(), Overwrites.TOOLS);
    register(map, new Uploads(), Uploads.TOOLS);
    register(map, new PackageSources(), PackageSources.TOOLS);
    Map<String, List<RuleFamily>> frozen = new HashMap<>();
    map.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
    return Map.copyOf(frozen);
  }

  private static void register(Map<String, List<RuleFamily>> map, RuleFamily family, Set<String> tools) {
    for (String t : tools) {
      map.computeIfAbsent(t, x -> new ArrayList<>()).add(family);
    }
  }

  /** Whether any family judges this tool (a cheap check before building a call). */
  public static boolean judges(String tool) {
    return BY_TOOL.containsKey(tool);
  }

  /** Runs every family that judges the call's tool; a call that only prints its usage ({@code --help}) does nothing. */
  public static void judge(ToolCall call, Block block) {
    List<RuleFamily> families = BY_TOOL.get(call.tool());
    if (families == null || call.helpOnly()) {
      return;
    }
    for (RuleFamily f : families) {
      f.judge(call, block);
    }
  }
}
