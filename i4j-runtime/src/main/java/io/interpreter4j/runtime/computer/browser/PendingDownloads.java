package io.interpreter4j.runtime.computer.browser;

import com.microsoft.playwright.Download;
import com.microsoft.playwright.PlaywrightException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Downloads an action started, held unsaved (in Playwright's temporary folder) until the gate has answered for each:
 * then saved into the working folder under the site's file name (reduced to a name, never a path; "name (1).ext"
 * when it exists) or cancelled. At most {@link #MAX} wait; more are cancelled at once. Browser's thread only.
 */
final class PendingDownloads {

  static final int MAX = 8;

  private final Path workdir;
  private final List<Download> waiting = new ArrayList<>();

  PendingDownloads(Path workdir) {
    this.workdir = workdir;
  }

  /** Holds {@code download}; false (and cancelled) when {@link #MAX} wait already. */
  boolean hold(Download download) {
    if (waiting.size() >= MAX) {
      download.cancel();
      return false;
    }
    waiting.add(download);
    return true;
  }

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  /** What the gate is asked about each, in order. */
  List<String> descriptions() {
    return waiting.stream()
        .map(d -> "download " + fileName(d.suggestedFilename()) + " from " + d.url() + " into " + workdir).toList();
  }

  /** Saves the downloads whose decision is true, cancels the others; one line for each, saying what happened. */
  List<String> settle(List<Boolean> allowed) {
    List<String> said = new ArrayList<>();
    for (int i = 0; i < waiting.size(); i++) {
      Download download = waiting.get(i);
      String name = fileName(download.suggestedFilename());
      try {
        if (i < allowed.size() && allowed.get(i)) {
          Path target = freeTarget(workdir, name);
          download.saveAs(target);
          said.add("downloaded " + download.url() + " to " + target);
        } else {
          download.cancel();
          said.add("download of " + name + " denied (ask-before download); nothing was saved");
        }
      } catch (PlaywrightException e) {
        String message = String.valueOf(e.getMessage()).strip();
        said.add("download of " + name + " failed: " + message.lines().findFirst().orElse(""));
      }
    }
    waiting.clear();
    return said;
  }

  /** Cancels every waiting download (the browser is closing or gone). */
  void cancelAll() {
    for (Download download : waiting) {
      try {
        download.cancel();
      } catch (RuntimeException e) {
        // the browser is gone, and the download with it
      }
    }
    waiting.clear();
  }

  /** The file name part of what the site suggested, never a path out of the working folder. */
  static String fileName(String suggested) {
    String name = suggested == null ? "" : suggested.replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1).strip();
    if (name.isEmpty() || name.equals(".") || name.equals("..")) {
      return "download";
    }
    return name.replaceAll("[\\x00-\\x1f]", "_");
  }

  /** {@code name} in {@code folder}, or "stem (N).ext" for the first N that does not exist yet. */
  static Path freeTarget(Path folder, String name) {
    Path target = folder.resolve(name);
    int dot = name.lastIndexOf('.');
    String stem = dot > 0 ? name.substring(0, dot) : name;
    String extension = dot > 0 ? name.substring(dot) : "";
    for (int i = 1; Files.exists(target) && i < 10_000; i++) {
      target = folder.resolve(stem + " (" + i + ")" + extension);
    }
    return target;
  }
}
