package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.shell.ShellWords.basename;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Level;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.analysis.Place;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * What the block does to files, whichever command or language does it: writes, deletes, moves, chmods, links, reads
 * of secrets, uploads, unpacked archives, downloads. Paths are words resolved in the {@link BashScope}; the
 * {@link PathJudge} says what the effect means there and the verdict goes to the block's {@link Findings}.
 */
final class PathEffects {

  private final PathJudge judge;
  private final Findings findings;
  private final BashScope scope;

  PathEffects(PathJudge judge, Findings findings, BashScope scope) {
    this.judge = judge;
    this.findings = findings;
    this.scope = scope;
  }

  Target write(Word w, boolean append) {
    Target t = scope.through(scope.resolve(w).target());
    if (t == null) {
      return null;
    }
    findings.add(judge.write(t, append));
    return t;
  }

  void created(Word w) {
    BashScope.Resolved r = scope.resolve(w);
    if (r.target() != null && r.target().glob() == null) {
      judge.created(r.target().path());
    }
  }

  void delete(Word w) {
    BashScope.Resolved r = scope.resolve(w);
    if (r.target() != null) {
      findings.add(judge.delete(r.target()));
    }
  }

  void recursiveDelete(Word w) {
    BashScope.Resolved r = scope.resolve(w);
    if (r.target() != null) {
      findings.add(judge.recursiveDelete(r.target()));
      return;
    }
    String text = w.text();
    if (r.unknown() == null && r.relativeToUnknownCwd() != null) {
      String rel = r.relativeToUnknownCwd();
      if (rel.equals(".") || rel.equals("..") || rel.startsWith("../") || rel.startsWith("*") || rel.startsWith("./*")
          || rel.startsWith(".*")) {
        findings.add(Flag.high("rm-recursive-glob", "recursive delete of " + rel + " in a directory that could not be determined"));
      } else {
        findings.add(Flag.medium("rm-recursive-unknown", "recursive delete of " + rel + " in a directory that could not be determined"));
      }
      return;
    }
    if (r.unknown() == null) {
      return;
    }
    Flag ifEmpty = r.ifEmpty() == null ? null : judge.recursiveDelete(r.ifEmpty());
    if (ifEmpty == null && r.relativeToUnknownCwd() != null) {
      ifEmpty = Flag.high("rm-recursive-glob", "recursive delete in a directory that could not be determined");
    }
    if (ifEmpty != null && ifEmpty.level() == Level.HIGH) {
      findings.add(Flag.high("rm-recursive-variable",
          "recursive delete of " + text + ", which is " + ifEmpty.reason() + " if " + r.unknown() + " is empty"));
    } else {
      findings.add(Flag.medium("rm-recursive-unknown", "recursive delete of " + text + ", whose value is not known"));
    }
  }

  void move(Word source, Word destination) {
    Target s = scope.target(source);
    if (s != null) {
      findings.add(judge.moveSource(s));
    }
    Target d = scope.target(destination);
    if (d != null) {
      findings.add(judge.moveDestination(d));
    }
  }

  /** chmod from another language, with the mode it sets when known ("666", "o+w"). */
  void permissions(Word w, String tool, String mode) {
    Target t = scope.through(scope.target(w));
    if (t != null) {
      findings.add(judge.permissions(t, false, tool, mode));
    }
  }

  /**
   * A link the block makes to {@code target} at {@code link} (or, {@code intoDir}, inside that folder under the
   * target's name): later writes and reads through the link reach the target. Relative targets are relative to the
   * link's folder, as the kernel reads them.
   */
  void linked(Word target, Word link, boolean intoDir) {
    Target l = scope.target(link);
    String t = target.literal() != null ? target.literal() : scope.valueOf(target);
    if (l == null || l.glob() != null || t == null || t.isEmpty()) {
      return;
    }
    Path linkPath = intoDir ? l.path().resolve(basename(t)).normalize() : l.path();
    Path base = linkPath.getParent() == null ? Path.of("/") : linkPath.getParent();
    try {
      Target absolute = t.startsWith("/") || t.startsWith("~") ? scope.target(target) : null;
      Path targetPath = absolute != null ? absolute.path() : base.resolve(t).normalize();
      judge.linked(linkPath, targetPath);
    } catch (InvalidPathException e) {
      // not a path this machine could hold: no link to follow
    }
  }

  /** An archive another language unpacks into {@code dir} (zipfile's extractall, R's unzip): judged like tar -x -C. */
  void extractInto(Word dir, String how) {
    Target t = scope.through(scope.target(dir));
    if (t == null) {
      return;
    }
    Place p = judge.place(t.path());
    if (p.isProtected() && p != Place.HOME_FILES) {
      findings.add(Flag.high("extract-over", "extracts an archive over " + p.describe() + " (" + judge.display(t)
          + "), replacing its files (" + how + ")"));
    }
  }

  /** A file that is read (python open(), Path.read_text()): a secret counts towards exfiltration. */
  void read(Word w) {
    noteRead(scope.through(scope.target(w)));
  }

  /**
   * A file the block reads: a secret counts towards exfiltration; a pid file outside the project names another
   * program's process, so signalling that pid later kills what the block did not start.
   */
  void noteRead(Target t) {
    if (t == null) {
      return;
    }
    String secret = judge.secret(t.path());
    if (secret != null) {
      findings.secretRead(secret);
    }
    Path name = t.path().getFileName();
    if (name != null && name.toString().endsWith(".pid") && t.glob() == null) {
      Place place = judge.place(t.path());
      if (place != Place.PROJECT && place != Place.WORKDIR) {
        findings.facts().processList("the pid file " + judge.display(t));
      }
    }
  }

  void uploaded(Word file) {
    if (file == null || file.text().equals("-")) {
      return;
    }
    Target t = scope.through(scope.target(file));
    if (t == null) {
      return;
    }
    String secret = judge.secret(t.path());
    if (secret != null) {
      findings.secretRead(secret);
    } else if (judge.containsSecrets(t.path())) {
      findings.secretRead(judge.display(t));
    }
  }

  /** A file another language downloads ({@code download.file}, {@code urlretrieve}): running it later is HIGH. */
  void downloaded(Word w) {
    Target t = scope.target(w);
    if (t != null) {
      scope.addDownloaded(t.path());
    }
  }

  /** Whether a path another language names is a file downloaded earlier in the block. */
  boolean isDownloaded(Word w) {
    Target t = scope.through(scope.target(w));
    return t != null && scope.isDownloaded(t.path());
  }

  /** What the block wrote to a file earlier (a heredoc, an echo, a write_text), or null. */
  String writtenContent(Word w) {
    BashScope.Resolved r = scope.resolve(w);
    return r.target() == null ? null : findings.writtenContent(r.target().path());
  }

  /** Where a path another language built lies. */
  Place place(Word w) {
    BashScope.Resolved r = scope.resolve(w);
    return r.target() == null ? Place.UNKNOWN : judge.place(r.target().path());
  }
}
