package io.interpreter4j.cli;

import io.interpreter4j.cli.chat.ChatInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.jline.reader.LineReader;
import org.jline.terminal.Terminal;

/**
 * The chat's terminal and line editor, opened on a thread of their own while the main thread reads the command line
 * and the configuration: JLine runs {@code infocmp} in a child process and waits for it, and its line editor binds
 * some 150 widgets as it is made. {@link Main} starts it for a command line that can only be the chat; the chat
 * takes it, or opens one now.
 */
final class ChatTerminal {

  /**
   * A terminal and its line reader; the reader's history file is set, and {@code workdir} (where paths are completed
   * from) filled in, once the settings are read.
   */
  record Opened(Terminal terminal, LineReader reader, AtomicReference<Path> workdir) {}

  private static final AtomicReference<CompletableFuture<Opened>> EARLY = new AtomicReference<>();

  private ChatTerminal() {}

  /** Starts opening the terminal for a chat the command line will start. */
  static void openEarly() {
    EARLY.set(open());
  }

  /** The opening {@link #openEarly} started, or one started now. */
  static CompletableFuture<Opened> take() {
    CompletableFuture<Opened> early = EARLY.getAndSet(null);
    return early != null ? early : open();
  }

  /**
   * Closes the terminal {@link #openEarly} opened when no chat took it (the command line was refused): given back as
   * it was found before anything is said.
   */
  static void discardEarly() {
    CompletableFuture<Opened> early = EARLY.getAndSet(null);
    if (early != null) {
      closeQuietly(early);
    }
  }

  /** Waits for an opening and closes its terminal, if it opened. */
  static void closeQuietly(CompletableFuture<Opened> opening) {
    try {
      opening.join().terminal().close();
    } catch (CompletionException | IOException e) {
      // nothing to give back, or exiting with the error that came first
    }
  }

  /** The opened terminal; what failed to open it is thrown as it was. */
  static Opened opened(CompletableFuture<Opened> opening) throws IOException {
    try {
      return opening.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  private static CompletableFuture<Opened> open() {
    CompletableFuture<Opened> opening = new CompletableFuture<>();
    Thread opener = new Thread(() -> {
      try {
        ConsoleLogging.quietJline();
        Terminal terminal = InteractiveChat.systemTerminal();
        try {
          AtomicReference<Path> workdir = new AtomicReference<>(Path.of("").toAbsolutePath());
          opening.complete(new Opened(terminal, ChatInput.reader(terminal, null, workdir::get), workdir));
        } catch (RuntimeException | Error e) {
          terminal.close();
          throw e;
        }
      } catch (IOException | RuntimeException | Error e) {
        opening.completeExceptionally(e);
      }
    }, "i4j-terminal-open");
    opener.setDaemon(true);
    opener.start();
    return opening;
  }
}
