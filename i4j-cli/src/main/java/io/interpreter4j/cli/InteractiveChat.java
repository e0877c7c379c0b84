package io.interpreter4j.cli;

import io.interpreter4j.cli.approve.ApprovalPrompter;
import io.interpreter4j.cli.approve.ConsoleApprover;
import io.interpreter4j.cli.approve.Editor;
import io.interpreter4j.cli.chat.ChatInput;
import io.interpreter4j.cli.chat.ShellCommand;
import io.interpreter4j.cli.history.SessionCatalog;
import io.interpreter4j.cli.history.TurnLog;
import io.interpreter4j.cli.render.EventRenderer;
import io.interpreter4j.cli.render.JsonEventPrinter;
import io.interpreter4j.cli.render.PlainRenderer;
import io.interpreter4j.cli.render.TerminalRenderer;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.session.ConversationRebuilder;
import io.interpreter4j.runtime.session.ProcessDefaults;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.ServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The interactive chat of {@code i4j} and {@code i4j resume}: reads messages with the {@link ChatInput} line
 * editor, runs {@code %} commands, and sends the rest to the session, answering its approval questions until the
 * turn ends. Ctrl-C interrupts the turn (or a {@code %%} command); Ctrl-D exits.
 */
final class InteractiveChat {

  /** A session to continue: its catalog entry and its journal. */
  record Resume(SessionCatalog.Entry entry, List<Event> events) {}

  /** Turns of the resumed conversation shown again before the prompt. */
  private static final int RECAP_TURNS = 2;
  /** Set when the JVM is going down (hang-up, SIGTERM): the loop shows no further prompt. */
  private static final AtomicBoolean EXITING = new AtomicBoolean();

  private InteractiveChat() {}

  /** Runs the chat until Ctrl-D; {@code dashboard} and {@code resume} may be null. */
  static int run(CommonOptions options, ServerConfig dashboard, Resume resume) throws IOException,
      InterruptedException {
    Map<String, String> env = System.getenv();
    // The terminal and its line editor open on a thread of their own (ChatTerminal; Main starts it before it reads
    // the command line) while this one reads the configuration and sets the process's defaults.
    CompletableFuture<ChatTerminal.Opened> opening = ChatTerminal.take();
    SessionLauncher.Prepared prepared;
    try {
      prepared = SessionLauncher.prepareForPrompt(options, env);
    } catch (RuntimeException | Error e) {
      ChatTerminal.closeQuietly(opening); // given back as it was found before the error is said
      throw e;
    }
    ChatTerminal.Opened opened = ChatTerminal.opened(opening);
    Terminal terminal = opened.terminal();
    try {
      PrintStream out = new PrintStream(terminal.output(), true, StandardCharsets.UTF_8);
      SessionLauncher launcher = new SessionLauncher(prepared, out);
      launcher.startSystemEarly(); // the actor system comes up while the banner and the prompt are drawn
      try {
        return run(options, dashboard, resume, env, opened, out, launcher);
      } finally {
        launcher.discardEarlySystem(); // terminated if the chat ended before its session started
      }
    } finally {
      terminal.close();
    }
  }

  private static int run(CommonOptions options, ServerConfig dashboard, Resume resume, Map<String, String> env,
                         ChatTerminal.Opened opened, PrintStream out, SessionLauncher launcher) throws IOException,
      InterruptedException {
    Terminal terminal = opened.terminal();
    boolean isTerminal = !terminal.getType().startsWith(Terminal.TYPE_DUMB);
    EventRenderer display = options.json ? new PlainRenderer(System.err, false)
        : launcher.display(options, isTerminal, terminal::getWidth, terminal::getHeight);
    Path history = launcher.settings.dataDir().resolve("history");
    Files.createDirectories(history.getParent());
    LineReader reader = opened.reader();
    reader.setVariable(LineReader.HISTORY_FILE, history);
    opened.workdir().set(launcher.settings.workdir());
    ConsoleApprover approver = new ConsoleApprover(true);
    boolean rich = display instanceof TerminalRenderer;
    ApprovalPrompter prompter = new ApprovalPrompter(prompt -> readAnswer(reader, rich
        ? "\u001b[1;33m" + prompt.stripTrailing() + "\u001b[0m " : prompt), out,
        new Editor(env, true), block -> {
          if (!options.json) {
            display.awaitApprovalShown(block, Duration.ofSeconds(2));
          }
        }, note -> {
          if (!reader.isReading()) {
            return false; // in the editor, say: the note waits until it is closed
          }
          // on the answering thread, before the session runs the block: its output comes below the note
          terminal.writer().print("\n" + note + "\n");
          terminal.flush();
          terminal.raise(Terminal.Signal.INT); // readLine ends as on Ctrl-C; the answer counts for nothing
          return true;
        });
    Consumer<Event> subscriber = options.json ? new JsonEventPrinter(out) : display;
    // The prompt does not wait for the session: on a model the flags, configuration or environment name, the banner
    // and the prompt come while the actor system and the session start on a thread of their own, and the first line
    // that needs the session waits for it (what is typed meanwhile is the line editor's, as always). With a dashboard
    // (it prints its URL) or a resumed conversation (restored before the prompt), or a model only the start can find
    // (a local Ollama), the chat waits for the session first, as it always did.
    Optional<String> named = dashboard == null && resume == null ? launcher.modelName() : Optional.empty();
    try (display; SessionStart start = SessionStart.begin(
        () -> launcher.start(options, approver, subscriber, dashboard),
        () -> {
          if (reader.isReading()) {
            terminal.raise(Terminal.Signal.INT); // readLine ends; the loop sees the failure and throws it
          }
        })) {
      // A start that failed after the loop looked and before readLine was reading: readLine ends at once (its own
      // INT handler, in place when it calls this, interrupts the reading thread).
      reader.getWidgets().put(LineReader.CALLBACK_INIT, () -> {
        if (start.failed()) {
          terminal.raise(Terminal.Signal.INT);
        }
        return true;
      });
      String model = named.orElseGet(() -> start.await().model());
      // A hang-up or SIGTERM still ends the REPL processes and gives the terminal back in its original mode.
      Thread onExit = new Thread(() -> {
        EXITING.set(true);
        if (reader.isReading()) {
          terminal.writer().println();
          terminal.flush();
        }
        display.close();
        CliSession session = start.now();
        if (session != null) {
          session.close();
        }
        try {
          terminal.close();
        } catch (IOException e) {
          // exiting anyway
        }
      }, "i4j-exit");
      Runtime.getRuntime().addShutdownHook(onExit);
      try {
        return chat(options, resume, launcher, display, out, isTerminal, terminal, start, model, reader, approver,
            prompter);
      } finally {
        removeHook(onExit);
      }
    }
  }

  /**
   * The terminal this process runs in, through JLine's JNI provider when it loads: asked for by name, JLine does not
   * probe the other providers first (the exec provider runs {@code test -t 1} in a child process to decide). Where
   * the JNI provider cannot load (or stdin is not a terminal) JLine chooses as it always did, a dumb terminal last.
   */
  static Terminal systemTerminal() throws IOException {
    try {
      return TerminalBuilder.builder().system(true).provider("jni").dumb(false).encoding(StandardCharsets.UTF_8)
          .build();
    } catch (IOException | RuntimeException | LinkageError e) {
      return TerminalBuilder.builder().system(true).encoding(StandardCharsets.UTF_8).build();
    }
  }

  private static int chat(CommonOptions options, Resume resume, SessionLauncher launcher, EventRenderer display,
                          PrintStream out, boolean isTerminal, Terminal terminal, SessionStart start, String model,
                          LineReader reader, ConsoleApprover approver, ApprovalPrompter prompter)
      throws InterruptedException {
    Map<String, String> env = System.getenv();
    ShellCommand shell = new ShellCommand();
    terminal.handle(Terminal.Signal.INT, sig -> {
      display.interrupted();
      CliSession session = start.now();
      if (shell.running()) {
        shell.interrupt();
      } else if (session != null) {
        session.interrupt();
      }
    });
    String profile = options.profile != null ? options.profile : env.get("I4J_PROFILE");
    Function<CliSession, MagicCommands> commands = session -> new MagicCommands(session, launcher.settings, display,
        shell, profile);
    if (!options.json) {
      display.println(display.theme().dim("interpreter4j · " + model + " · "
          + (launcher.autoRun() ? "auto-run (-y)" + sandboxed() : "asks before running code")
          + " · %help for commands · Ctrl-D exits"));
    }
    if (resume != null) {
      resume(resume, start.await(), launcher, display, out, isTerminal && display instanceof TerminalRenderer,
          terminal);
    }
    String prompt = display instanceof TerminalRenderer ? "\u001b[1;32m❯\u001b[0m " : "> ";
    return loop(reader, prompt, start, display, commands, approver, prompter);
  }

  /** ", in the bwrap sandbox" where auto-run code runs in one, else "". */
  private static String sandboxed() {
    String sandbox = ProcessDefaults.containment().forAutoRun().name();
    return "none".equals(sandbox) ? "" : ", in the " + sandbox + " sandbox";
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook runs
    }
  }

  private static int loop(LineReader reader, String prompt, SessionStart start, EventRenderer display,
                          Function<CliSession, MagicCommands> commands, ConsoleApprover approver,
                          ApprovalPrompter prompter) throws InterruptedException {
    Terminal terminal = reader.getTerminal();
    Attributes cooked = terminal.getAttributes(); // as readLine leaves the terminal: it echoes what is typed
    MagicCommands magic = null; // made with the session, at the first % command
    while (!EXITING.get()) {
      if (start.failed()) {
        start.await(); // throws why the session did not start, as a start before the prompt would have
      }
      display.idle();
      String line;
      try {
        line = reader.readLine(prompt);
      } catch (UserInterruptException e) {
        terminal.setAttributes(cooked);
        if (start.failed()) {
          terminal.writer().println(); // the start failed while the prompt waited: its message on a line of its own
          terminal.flush();
          continue;
        }
        display.println(display.theme().dim("(Ctrl-D exits)"));
        continue;
      } catch (EndOfFileException e) {
        terminal.setAttributes(cooked);
        terminal.writer().println(); // the shell's prompt starts on a line of its own
        terminal.flush();
        return 0;
      }
      String text = ChatInput.message(line);
      if (line.strip().startsWith("%") && !line.strip().startsWith("%%") && !line.contains("\n")) {
        // Keys typed while the command runs wait for the next prompt, which shows them after itself; echoed by the
        // terminal now they would land above the command's output or before the prompt.
        terminal.setAttributes(typeahead(cooked));
        magic = magic != null ? magic : commands.apply(start.await());
        magic.handle(line);
        continue; // stays so until the next readLine, which puts back the attributes it found
      }
      terminal.setAttributes(cooked); // a %% command, a turn and its editor get the terminal as it was
      if (text.isBlank()) {
        continue;
      }
      if (line.strip().startsWith("%") && !line.contains("\n")) {
        magic = magic != null ? magic : commands.apply(start.await());
        magic.handle(line);
        continue;
      }
      CliSession session = start.await(); // the first message waits here for the session to have started
      display.turnStarted();
      SessionLauncher.awaitTurn(session.send(text), approver, prompter);
    }
    return 0;
  }

  /**
   * The terminal between two prompts while a {@code %} command runs: no echo and no line editing by the terminal, so
   * keys typed ahead reach the next readLine untouched and are shown after its prompt; Ctrl-C still raises SIGINT.
   */
  private static Attributes typeahead(Attributes cooked) {
    Attributes quiet = new Attributes(cooked);
    quiet.setLocalFlag(Attributes.LocalFlag.ECHO, false);
    quiet.setLocalFlag(Attributes.LocalFlag.ICANON, false);
    quiet.setControlChar(Attributes.ControlChar.VMIN, 1);
    quiet.setControlChar(Attributes.ControlChar.VTIME, 0);
    return quiet;
  }

  /** Restores the conversation of an earlier session and shows its last turns again. */
  private static void resume(Resume resume, CliSession session, SessionLauncher launcher, EventRenderer display,
                             PrintStream out, boolean rich, Terminal terminal) {
    SessionCatalog.Entry entry = resume.entry();
    ConversationRebuilder.Rebuilt rebuilt = ConversationRebuilder.rebuild(resume.events(),
        launcher.settings.maxOutput());
    TurnLog log = TurnLog.of(resume.events());
    EventRenderer recap = rich ? new TerminalRenderer(out, terminal::getWidth, terminal::getHeight, true)
        : new PlainRenderer(out, false, true);
    recap.inlinePictures(SessionLauncher.pictures(launcher.config, rich, launcher.env));
    List<TurnLog.Turn> turns = log.turns();
    int hidden = Math.max(0, turns.size() - RECAP_TURNS);
    if (hidden > 0 || !log.restored().isEmpty()) {
      display.println(display.theme().dim("… " + (hidden + log.restored().size() / 2) + " earlier exchanges "
          + "(i4j show " + entry.id() + " prints them all)"));
    }
    for (TurnLog.Turn turn : turns.subList(hidden, turns.size())) {
      recap.accept(new Event(entry.id(), 0, turn.at(), new EventPayload.UserMessage(turn.userText())));
      for (EventPayload p : turn.events()) {
        recap.accept(new Event(entry.id(), 0, turn.at(), p));
      }
    }
    recap.close();
    Session.Changed changed = session.restore(rebuilt.messages(), "resume", entry.id(),
        String.format(MagicCommands.RESUME_NOTE, entry.id()));
    if (changed.done()) {
      display.println(display.theme().green("✓ ") + "resumed session " + entry.id() + " (" + changed.messages().size()
          + " messages); the REPL state of its blocks was not kept");
    } else {
      display.println(display.theme().yellow("! ") + changed.message());
    }
  }

  private static Optional<String> readAnswer(LineReader reader, String prompt) {
    Object disabled = reader.getVariable(LineReader.DISABLE_HISTORY);
    reader.setVariable(LineReader.DISABLE_HISTORY, true);
    try {
      return Optional.of(reader.readLine(prompt));
    } catch (UserInterruptException e) {
      return Optional.of("n");
    } catch (EndOfFileException e) {
      return Optional.empty();
    } finally {
      reader.setVariable(LineReader.DISABLE_HISTORY, disabled == null ? false : disabled);
    }
  }
}
