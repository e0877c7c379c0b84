package io.interpreter4j.core.safety.bash;

import java.util.Map;

/** What one rule family does with a command it judges, by the command's name (the dispatch of {@link BashAnalyzer}). */
@FunctionalInterface
interface CommandHandler {

  void judge(BashAnalyzer bash, Invocation inv);

  /** Files {@code handler} under each of {@code names}; a name already taken by another family is a mistake. */
  static void register(Map<String, CommandHandler> table, CommandHandler handler, String... names) {
    for (String name : names) {
      if (table.putIfAbsent(name, handler) != null) {
        throw new IllegalStateException("two bash handlers for " + name);
      }
    }
  }
}
