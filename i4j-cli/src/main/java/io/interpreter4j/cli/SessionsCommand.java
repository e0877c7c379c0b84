package io.interpreter4j.cli;

import io.interpreter4j.cli.history.Journal;
import io.interpreter4j.cli.history.SessionCatalog;
import io.interpreter4j.core.event.EventCodec;
import java.io.PrintStream;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code i4j sessions}: the conversations kept in the data folder, newest first. */
@Command(name = "sessions", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"List the kept conversations, newest first: id, start, status of the last turn, turns, title.",
        "'i4j show ID' prints one; 'i4j resume ID' continues it."})
final class SessionsCommand implements Callable<Integer> {

  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
      .withZone(ZoneId.systemDefault());

  @Mixin DataOptions data;

  @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "Show at most N sessions. Default: 20.")
  int limit = 20;

  @Option(names = "--all", description = "Show all sessions.")
  boolean all;

  @Option(names = "--json", description = "One JSON object per session and line.")
  boolean json;

  @Override
  public Integer call() {
    PrintStream out = System.out;
    var dataDir = data.settings().dataDir();
    List<SessionCatalog.Entry> entries = SessionCatalog.list(dataDir);
    if (entries.isEmpty()) {
      if (!json) {
        out.println("no sessions yet in " + Journal.sessionsDir(dataDir) + " (start one with: i4j)");
      }
      return 0;
    }
    List<SessionCatalog.Entry> shown = all ? entries : entries.subList(0, Math.min(limit, entries.size()));
    if (json) {
      for (SessionCatalog.Entry e : shown) {
        var node = EventCodec.mapper().createObjectNode();
        node.put("id", e.id());
        node.put("started", e.started().toString());
        node.put("status", e.status());
        node.put("turns", e.turns());
        node.put("title", e.title());
        node.put("model", e.model());
        node.put("resumed_from", e.resumedFrom());
        node.put("journal", e.journal().toString());
        out.println(node);
      }
      return 0;
    }
    int idWidth = Math.max(2, shown.stream().mapToInt(e -> e.id().length()).max().orElse(2));
    String format = "%-" + idWidth + "s  %-16s  %-11s  %5s  %s%n";
    out.printf(format, "ID", "STARTED", "STATUS", "TURNS", "TITLE");
    for (SessionCatalog.Entry e : shown) {
      String title = e.title();
      if (e.resumedFrom() != null) {
        title = title + "  (resumed from " + e.resumedFrom() + ")";
      }
      out.printf(format, e.id(), WHEN.format(e.started()), e.status().isEmpty() ? "-" : e.status(), e.turns(), title);
    }
    if (shown.size() < entries.size()) {
      out.println("... " + (entries.size() - shown.size()) + " older (--all shows them)");
    }
    return 0;
  }
}
