package io.interpreter4j.core.safety.analysis;

import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.Path;

/**
 * The shell analysis a program in another language lends its effects to (from {@link NestedCode#shell}): the shell
 * commands it runs and what it does to files (writes, reads, deletes, moves, chmods, links, unpacks, downloads) are
 * judged exactly as the same effects in bash, with the folder, downloaded files and written contents they share.
 * Paths are shell words, so values known only in part ({@code $HOME/x}) are resolved the same way.
 */
public interface ShellEffects {

  /** A shell command line the program runs here ({@code os.system}, {@code subprocess}, {@code system()}). */
  void analyze(String code);

  /** Shell code run elsewhere (another machine, a container): its paths are not this block's. */
  void runShell(String code);

  /** A file written (or appended to); the target as judged. */
  Target write(Word w, boolean append);

  /** A folder the program creates: later effects inside it touch only what the block made. */
  void created(Word w);

  /** A file that is read: a secret counts towards exfiltration. */
  void read(Word w);

  /** A file or empty folder deleted. */
  void delete(Word w);

  /** A folder deleted with everything in it. */
  void recursiveDelete(Word w);

  /** A file or folder moved or renamed. */
  void move(Word source, Word destination);

  /** chmod or chown ({@code tool}) without a known mode. */
  void permissions(Word w, String tool);

  /** chmod or chown ({@code tool}) with the mode it sets when known ("666", "o+w"), else null. */
  void permissions(Word w, String tool, String mode);

  /** A link at {@code link} to {@code target} (into the folder {@code link} when {@code intoDir}). */
  void linked(Word target, Word link, boolean intoDir);

  /** An archive unpacked into {@code dir}; {@code how} names the call. */
  void extractInto(Word dir, String how);

  /** A file downloaded from the network: running it later is HIGH. */
  void downloaded(Word w);

  /** Whether a path names a file downloaded earlier in the block. */
  boolean isDownloaded(Word w);

  /** What the block wrote to a file earlier, or null. */
  String writtenContent(Word w);

  /** The current folder changes: later relative paths resolve against it. */
  void chdir(Word w);

  /** The current folder as far as it is known, or null. */
  Path cwd();

  /** Where a path lies. */
  Place place(Word w);
}
