package io.interpreter4j.core.safety.bash;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.PathJudge.Kind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** git commands that destroy work: hard resets, forced cleans, discarded changes, deleted branches and stashes. */
final class GitCommands {

  private GitCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, GitCommands::git, "git");
  }

  private static void git(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    int k = 0;
    while (k < texts.size() && texts.get(k).startsWith("-")) {
      String t = texts.get(k);
      k += (t.equals("-C") || t.equals("-c")) ? 2 : 1;
    }
    if (k >= texts.size()) {
      return;
    }
    String sub = texts.get(k);
    List<String> rest = texts.subList(k + 1, texts.size());
    int dashC = texts.indexOf("-C");
    Path repo = dashC >= 0 && dashC + 1 < texts.size() ? bash.scope().pathOf(texts.get(dashC + 1)) : bash.scope().cwd();
    if (repo != null && bash.judge().kind(repo) == Kind.CREATED) {
      // a repository the block made in a temporary folder: its working tree is the block's own
      return;
    }
    switch (sub) {
      case "reset" -> {
        if (rest.contains("--hard")) {
          bash.findings().add(Flag.high("git-reset-hard", "discards uncommitted changes (git reset --hard)"));
        }
      }
      case "clean" -> {
        StringBuilder letters = new StringBuilder();
        boolean dry = false;
        for (String t : rest) {
          if (t.equals("--dry-run") || t.equals("--interactive")) {
            dry = true;
          } else if (t.equals("--force")) {
            letters.append('f');
          } else if (t.startsWith("-") && !t.startsWith("--")) {
            letters.append(t.substring(1));
          }
        }
        String l = letters.toString();
        if (dry || l.indexOf('n') >= 0 || l.indexOf('i') >= 0) {
          return;
        }
        if (l.indexOf('f') >= 0 && (l.indexOf('d') >= 0 || l.indexOf('x') >= 0 || l.indexOf('X') >= 0)) {
          bash.findings().add(Flag.high("git-clean-force", "deletes untracked files and directories (git clean -" + l + ")"));
        } else if (l.indexOf('f') >= 0) {
          bash.findings().add(Flag.medium("git-clean", "deletes untracked files (git clean -f)"));
        }
      }
      case "checkout", "restore" -> {
        if (rest.contains(".") && !rest.contains("--staged") || rest.contains("-f") || rest.contains("--force")) {
          bash.findings().add(Flag.medium("git-discard", "discards uncommitted changes (git " + sub + ")"));
        }
      }
      case "branch" -> {
        if (rest.contains("-D")) {
          bash.findings().add(Flag.medium("git-branch-delete", "force-deletes a branch (git branch -D)"));
        }
      }
      case "stash" -> {
        if (!rest.isEmpty() && (rest.get(0).equals("clear") || rest.get(0).equals("drop"))) {
          bash.findings().add(Flag.medium("git-stash-drop", "drops stashed changes (git stash " + rest.get(0) + ")"));
        }
      }
      case "filter-branch", "filter-repo" -> bash.findings().add(Flag.medium("git-rewrite", "rewrites repository history (git " + sub + ")"));
      default -> {
        // other git commands do not destroy work
      }
    }
  }
}
