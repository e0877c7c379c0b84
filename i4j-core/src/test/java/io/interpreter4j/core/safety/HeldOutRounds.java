package io.interpreter4j.core.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.analysis.Risk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Held-out rounds of the danger analysis: JSON-lines files {@code safety/heldout/round-N.jsonl} on the test
 * classpath, each written by someone who had not read the analyzer, scored against {@link DangerAnalyzer} in the
 * context the tester assumed (working folder /home/user/project, home /home/user).
 *
 * <p>Each line: {@code {"id", "language", "code", "expect": "high"|"benign", "family", "why"}}. A round added as
 * {@code round-2.jsonl} is picked up without code changes. Run {@link #main} (or {@code HeldOutRoundsTest}) to print
 * the figures.
 */
final class HeldOutRounds {

  /** The context every held-out case assumes. */
  static final AnalysisContext CONTEXT = AnalysisContext.of(Path.of("/home/user/project"), Path.of("/home/user"));

  /** Cases of this family are the server helper's (blocks calling interpreter4j's own API): reported apart. */
  static final String SELF_API = "self-api";

  private static final Pattern ROUND_FILE = Pattern.compile("round-(\\d+)\\.jsonl");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One case as the tester wrote it. */
  record Case(String id, String language, String code, boolean high, String family, String why) {

    @Override
    public String toString() {
      return id + " [" + language + ", " + family + "] " + why;
    }
  }

  /** One round: its number and its cases. */
  record Round(int number, Path file, List<Case> cases) {

    String name() {
      return "round-" + number;
    }
  }

  /** Caught (high) or refused (benign) out of a total. */
  record Tally(int hits, int total) {

    Tally plus(boolean hit) {
      return new Tally(hits + (hit ? 1 : 0), total + 1);
    }

    String percent() {
      return total == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * hits / total);
    }

    @Override
    public String toString() {
      return hits + "/" + total + " (" + percent() + ")";
    }
  }

  /**
   * A round's score: dangerous cases caught (rated HIGH) and benign cases refused (rated HIGH), overall without the
   * self-api family, that family apart, and by family and language; the misses with their flags.
   */
  record Score(Round round, Tally caught, Tally refused, Tally selfApi, Map<String, Tally> byFamily,
               Map<String, Tally> caughtByLanguage, Map<String, Tally> refusedByLanguage, List<String> missed,
               List<String> wronglyRefused, List<String> analysisFailed) {

    String report(boolean details) {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format(Locale.ROOT, "%s: %d cases; high caught %s; benign refused %s; %s (apart) caught %s%n",
          round.name(), round.cases().size(), caught, refused, SELF_API, selfApi));
      sb.append("  by family (high caught, benign refused):\n");
      byFamily.forEach((f, t) -> sb.append(String.format(Locale.ROOT, "    %-22s %s%n", f, t)));
      sb.append("  by language (high caught | benign refused):\n");
      for (String lang : caughtByLanguage.keySet()) {
        sb.append(String.format(Locale.ROOT, "    %-12s %-14s | %s%n", lang, caughtByLanguage.get(lang),
            refusedByLanguage.getOrDefault(lang, new Tally(0, 0))));
      }
      if (details) {
        missed.forEach(m -> sb.append("  missed:  ").append(m).append('\n'));
        wronglyRefused.forEach(r -> sb.append("  refused: ").append(r).append('\n'));
      }
      return sb.toString();
    }
  }

  private HeldOutRounds() {}

  /** Every {@code round-N.jsonl} in {@code safety/heldout} on the test classpath, in round order. */
  static List<Round> load() {
    URL dir = HeldOutRounds.class.getResource("/safety/heldout");
    if (dir == null) {
      throw new IllegalStateException("safety/heldout is not on the test classpath");
    }
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      List<Round> rounds = new ArrayList<>();
      for (Path f : files.toList()) {
        Matcher m = ROUND_FILE.matcher(f.getFileName().toString());
        if (m.matches()) {
          rounds.add(new Round(Integer.parseInt(m.group(1)), f, read(f)));
        }
      }
      rounds.sort(Comparator.comparingInt(Round::number));
      return rounds;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The cases of one file; a malformed line is an error naming the file, the line and what is wrong. */
  static List<Case> read(Path file) throws IOException {
    List<Case> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int k = 0; k < lines.size(); k++) {
      String line = lines.get(k);
      if (line.isBlank()) {
        continue;
      }
      String where = file.getFileName() + " line " + (k + 1);
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(where + ": not JSON (" + e.getOriginalMessage() + ")");
      }
      for (String field : List.of("id", "language", "code", "expect", "family")) {
        if (!n.hasNonNull(field) || !n.get(field).isTextual()) {
          throw new IllegalStateException(where + ": the string field \"" + field + "\" is missing");
        }
      }
      String expect = n.get("expect").asText();
      if (!expect.equals("high") && !expect.equals("benign")) {
        throw new IllegalStateException(where + ": \"expect\" must be \"high\" or \"benign\", was \"" + expect + "\"");
      }
      out.add(new Case(n.get("id").asText(), n.get("language").asText(), n.get("code").asText(), expect.equals("high"),
          n.get("family").asText(), n.path("why").asText("")));
    }
    return out;
  }

  /** Runs every case of the round through the analyzer. */
  static Score score(Round round, DangerAnalyzer analyzer) {
    Tally caught = new Tally(0, 0);
    Tally refused = new Tally(0, 0);
    Tally selfApi = new Tally(0, 0);
    Map<String, Tally> byFamily = new TreeMap<>();
    Map<String, Tally> caughtByLanguage = new TreeMap<>();
    Map<String, Tally> refusedByLanguage = new TreeMap<>();
    List<String> missed = new ArrayList<>();
    List<String> wronglyRefused = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    Tally none = new Tally(0, 0);
    for (Case c : round.cases()) {
      Risk risk = analyzer.analyze(c.language(), c.code(), CONTEXT);
      boolean high = risk.isHigh();
      if (risk.flags().stream().anyMatch(f -> f.rule().equals("analysis-failed"))) {
        failed.add(c.toString());
      }
      byFamily.put(c.family(), byFamily.getOrDefault(c.family(), none).plus(high));
      if (c.high() && c.family().equals(SELF_API)) {
        selfApi = selfApi.plus(high);
      } else if (c.high()) {
        caught = caught.plus(high);
        caughtByLanguage.put(c.language(), caughtByLanguage.getOrDefault(c.language(), none).plus(high));
        if (!high) {
          missed.add(c + " -> " + risk.level() + " " + risk.flags());
        }
      } else {
        refused = refused.plus(high);
        refusedByLanguage.put(c.language(), refusedByLanguage.getOrDefault(c.language(), none).plus(high));
        if (high) {
          wronglyRefused.add(c + " -> " + risk.reason());
        }
      }
    }
    return new Score(round, caught, refused, selfApi, byFamily, caughtByLanguage, refusedByLanguage, missed,
        wronglyRefused, failed);
  }

  /** Prints every round's figures and its misses; run from the test classpath. */
  public static void main(String[] args) {
    boolean details = args.length == 0 || !args[0].equals("--summary");
    DangerAnalyzer analyzer = new DangerAnalyzer();
    for (Round r : load()) {
      System.out.print(score(r, analyzer).report(details));
    }
  }
}
