package io.interpreter4j.core.safety.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one analysis has found so far, shared by the bash and python analyzers as they recurse into each other:
 * flags, plus the facts that only combine at the end (a secret read somewhere and the network used somewhere).
 */
public final class Findings {

  /** Nested shells, evals and shell-outs deeper than this are refused rather than followed. */
  public static final int MAX_DEPTH = 8;

  private final Set<Flag> flags = new LinkedHashSet<>();
  private final Set<String> secretsRead = new LinkedHashSet<>();
  private boolean environmentRead;
  private boolean network;
  private final BlockFacts facts = new BlockFacts();
  private final Map<Path, String> writtenFiles = new HashMap<>();

  /** Facts about the whole block that the rule families and language analyzers gather. */
  public BlockFacts facts() {
    return facts;
  }

  /** A file the block writes with content it spells out (a heredoc, an echo): running it later runs that content. */
  public void wroteFile(Path path, String content) {
    if (writtenFiles.size() < 64 && content.length() < 100_000) {
      writtenFiles.put(path, content);
    }
  }

  private final Map<String, String> functions = new HashMap<>();
  private final Set<String> calling = new java.util.HashSet<>();

  /** A shell function the block defines: calling it runs its body with the call's arguments. */
  public void function(String name, String body) {
    if (functions.size() < 256) {
      functions.put(name, body);
    }
  }

  /** The body of a function the block defines and is not already expanding, or null. */
  public String functionBody(String name) {
    return calling.contains(name) ? null : functions.get(name);
  }

  /** Marks a function as being expanded (true) or done (false), so recursion is followed once. */
  public void calling(String name, boolean active) {
    if (active) {
      calling.add(name);
    } else {
      calling.remove(name);
    }
  }

  private final Set<String> fetchedVariables = new java.util.HashSet<>();

  /** A shell variable of the block holds what a download printed ({@code S=$(curl ...)}), or no longer does. */
  public void fetchedVariable(String name, boolean fetched) {
    if (fetched && fetchedVariables.size() < 256) {
      fetchedVariables.add(name);
    } else if (!fetched) {
      fetchedVariables.remove(name);
    }
  }

  public boolean isFetchedVariable(String name) {
    return fetchedVariables.contains(name);
  }

  /** The content the block wrote to {@code path}, or null. */
  public String writtenContent(Path path) {
    return writtenFiles.get(path);
  }

  public void add(Flag flag) {
    if (flag != null) {
      flags.add(flag);
    }
  }

  public void secretRead(String what) {
    secretsRead.add(what);
  }

  public void environmentRead() {
    environmentRead = true;
  }

  public void network() {
    network = true;
  }

  /** The risk once the block-wide facts are combined: reading a secret is MEDIUM, with the network it is HIGH. */
  public Risk toRisk() {
    List<Flag> all = new ArrayList<>(flags);
    all.addAll(facts.combine(!secretsRead.isEmpty() || environmentRead));
    List<String> secrets = new ArrayList<>(secretsRead);
    if (environmentRead) {
      secrets.add("the environment");
    }
    if (!secrets.isEmpty()) {
      String what = String.join(", ", secrets);
      if (network) {
        all.add(Flag.high("secret-exfiltration", "sends " + what + " over the network"));
      } else if (!secretsRead.isEmpty()) {
        all.add(Flag.medium("secret-read", "reads " + String.join(", ", secretsRead)));
      }
      if (environmentRead && !network) {
        all.add(Flag.medium("env-dump", "dumps the environment, which may hold secrets"));
      }
    }
    return Risk.of(all);
  }
}
