package io.interpreter4j.runtime.repl.jshell;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.UnresolvedReferenceException;

/**
 * The java REPL driver: a child JVM holding one JShell session with the local execution engine, so snippets run in
 * this JVM and print straight to its stdout and stderr. Started behind a shell that moved the command channel to
 * fd 3, copies of stdout and stderr to fds 4 and 5, and stdin to /dev/null; so {@code System.in} is at end-of-file
 * and child processes started with {@code Redirect.INHERIT} get /dev/null too (the JDK closes every other
 * descriptor in its children). Protocol as the python driver's: one line {@code "<marker> <code file>"} per block,
 * then {@code "\u0002<marker> <status> -"} on fds 4 and 5.
 *
 * <p>Variables, methods, classes and imports persist. A compile error or an uncaught exception ends the block with
 * status 1 and the diagnostic or stack trace on stderr (snippet positions are turned into lines of the block's
 * file); a trailing expression's value is printed. SIGINT stops the running snippet ({@link JShell#stop}), status
 * 130. {@code System.exit} ends this JVM: the worker reports it and starts a new one.
 *
 * <p>Depends on nothing but the JDK: it runs from interpreter4j's jar or classes folder with no other classpath.
 */
public final class JShellDriver {

  private final JShell shell;
  private final SourceCodeAnalysis analysis;
  /** Snippet id to the line of the block file it starts on, for stack traces of earlier blocks too. */
  private final Map<String, Origin> origins = new HashMap<>();
  private volatile boolean running;
  private volatile boolean interrupted;
  /** Counts evaluations, so a stop meant for one never reaches the next. */
  private volatile long evaluation;
  private final Object stopLock = new Object();

  private record Origin(String file, int line) {}

  private JShellDriver(JShell shell) {
    this.shell = shell;
    this.analysis = shell.sourceCodeAnalysis();
  }

  public static void main(String[] args) throws IOException {
    System.setIn(new ByteArrayInputStream(new byte[0]));
    JShell shell = JShell.builder()
        .executionEngine("local")
        .in(new ByteArrayInputStream(new byte[0]))
        .out(System.out)
        .err(System.err)
        .build();
    JShellDriver driver = new JShellDriver(shell);
    driver.handleSigint();
    driver.loop();
  }

  private void loop() throws IOException {
    try (BufferedReader commands = new BufferedReader(new InputStreamReader(new FileInputStream("/dev/fd/3"),
             StandardCharsets.UTF_8));
         OutputStream markerOut = new FileOutputStream("/dev/fd/4");
         OutputStream markerErr = new FileOutputStream("/dev/fd/5")) {
      String line;
      while ((line = commands.readLine()) != null) {
        int space = line.indexOf(' ');
        String marker = line.substring(0, space);
        Path file = Path.of(line.substring(space + 1));
        int status;
        try {
          status = execute(file);
        } catch (RuntimeException | IOException e) {
          e.printStackTrace();
          status = 1;
        }
        System.out.flush();
        System.err.flush();
        byte[] done = ("\u0002" + marker + " " + status + " -\n").getBytes(StandardCharsets.US_ASCII);
        markerOut.write(done);
        markerOut.flush();
        markerErr.write(done);
        markerErr.flush();
      }
    }
    shell.close();
    System.exit(0);
  }

  private int execute(Path file) throws IOException {
    String source = Files.readString(file, StandardCharsets.UTF_8);
    String name = file.getFileName().toString();
    String remaining = source;
    int consumed = 0;
    interrupted = false;
    SnippetEvent last = null;
    while (!remaining.isBlank()) {
      SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(remaining);
      String snippet = info.source();
      if (snippet == null || info.completeness() == SourceCodeAnalysis.Completeness.DEFINITELY_INCOMPLETE) {
        // unfinished at the end of the block: let JShell compile it and report what is missing
        snippet = remaining;
      }
      // without its leading blank lines, the snippet's line 1 is the block file's line {@code line}
      int blank = leadingBlank(snippet);
      int line = lineAt(source, consumed + leadingBlank(remaining));
      List<SnippetEvent> events;
      synchronized (stopLock) {
        evaluation++;
        running = true;
      }
      try {
        events = shell.eval(snippet.substring(blank));
      } finally {
        running = false;
      }
      for (SnippetEvent event : events) {
        if (event.causeSnippet() == null) {
          origins.put(event.snippet().id(), new Origin(name, line));
        }
      }
      if (interrupted) {
        System.err.println("Interrupted (SIGINT)");
        return 130;
      }
      for (SnippetEvent event : events) {
        if (event.causeSnippet() != null) {
          continue; // an update of an earlier snippet this one affected
        }
        if (event.status() == Snippet.Status.REJECTED) {
          reportDiagnostics(event.snippet(), name, line);
          return 1;
        }
        if (event.exception() != null) {
          reportException(event.exception());
          return 1;
        }
        if (event.status() == Snippet.Status.RECOVERABLE_DEFINED
            || event.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED) {
          unresolved(event.snippet(), name, line);
        }
        last = event;
      }
      int used = info.source() == null ? remaining.length() : remaining.length() - info.remaining().length();
      consumed += used;
      remaining = info.source() == null ? "" : info.remaining();
    }
    if (last != null && isExpression(last.snippet()) && last.value() != null) {
      System.out.println(last.value());
    }
    return 0;
  }

  private static boolean isExpression(Snippet snippet) {
    return snippet.kind() == Snippet.Kind.EXPRESSION
        || snippet.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND;
  }

  private void reportDiagnostics(Snippet snippet, String file, int firstLine) {
    String source = snippet.source();
    shell.diagnostics(snippet).forEach(diag -> {
      if (!diag.isError()) {
        return;
      }
      int at = (int) Math.max(0, Math.min(diag.getStartPosition(), source.length()));
      int line = firstLine + lineAt(source, at) - 1;
      System.err.println(file + ":" + line + ": error: " + diag.getMessage(Locale.ROOT));
      String text = lineText(source, at);
      if (!text.isBlank()) {
        System.err.println(text);
        System.err.println(" ".repeat(Math.max(0, at - lineStart(source, at))) + "^");
      }
    });
    if (shell.diagnostics(snippet).noneMatch(Diag::isError) && snippet instanceof DeclarationSnippet declaration) {
      shell.unresolvedDependencies(declaration).forEach(name -> System.err.println(file + ":" + firstLine
          + ": error: cannot find symbol: " + name));
    }
  }

  private void unresolved(Snippet snippet, String file, int line) {
    if (!(snippet instanceof DeclarationSnippet declaration)) {
      return;
    }
    String names = String.join(", ", shell.unresolvedDependencies(declaration).toList());
    if (!names.isEmpty()) {
      System.err.println(file + ":" + line + ": note: defined, but cannot be used until these are declared: "
          + names);
    }
  }

  /** A stack trace in the usual format, with snippet frames ({@code #12:3}) turned into block file lines. */
  private void reportException(JShellException exception) {
    StringBuilder out = new StringBuilder();
    Throwable current = exception;
    boolean first = true;
    while (current != null) {
      out.append(first ? "" : "Caused by: ").append(describe(current)).append('\n');
      for (StackTraceElement frame : current.getStackTrace()) {
        out.append("\tat ").append(frame(frame)).append('\n');
      }
      first = false;
      current = current.getCause();
    }
    System.err.print(out);
  }

  private static String describe(Throwable t) {
    String type;
    if (t instanceof EvalException eval) {
      type = eval.getExceptionClassName();
    } else if (t instanceof UnresolvedReferenceException unresolved) {
      return "a method or class used here is not fully defined yet: " + unresolved.getSnippet().source().strip();
    } else {
      type = t.getClass().getName();
    }
    return t.getMessage() == null ? type : type + ": " + t.getMessage();
  }

  private String frame(StackTraceElement frame) {
    String fileName = frame.getFileName();
    if (fileName != null && fileName.startsWith("#")) {
      Origin origin = origins.get(fileName.substring(1));
      if (origin != null) {
        String where = origin.file() + ":" + (origin.line() + Math.max(frame.getLineNumber(), 1) - 1);
        // snippet wrappers are REPL.$JShell$12; a class declared in a snippet is REPL.$JShell$12$Point
        String owner = frame.getClassName().replaceAll("^REPL\\.\\$JShell\\$\\d+\\$?", "");
        return (owner.isEmpty() ? "" : owner + ".") + frame.getMethodName() + "(" + where + ")";
      }
    }
    return frame.toString();
  }

  /** Interrupts the running snippet on SIGINT; ignores it while idle. Through reflection: sun.misc is unsupported. */
  private void handleSigint() {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Object signal = signalClass.getConstructor(String.class).newInstance("INT");
      InvocationHandler onSignal = (proxy, method, args) -> {
        if (method.getName().equals("handle")) {
          if (running && !interrupted) {
            interrupted = true;
            stopUntilIdle();
          }
          return null;
        }
        return switch (method.getName()) {
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> "i4j-sigint";
        };
      };
      Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass}, onSignal);
      signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // no way to catch SIGINT: the worker kills the process after its grace period instead
      new PrintStream(System.err, true, StandardCharsets.UTF_8).println("i4j: SIGINT cannot be handled: " + e);
    }
  }

  /**
   * {@link JShell#stop} only stops code that is executing; a snippet still being compiled would start afterwards
   * and run on. So keep stopping until the evaluation has returned.
   */
  private void stopUntilIdle() {
    long target = evaluation;
    Thread stopper = new Thread(() -> {
      while (true) {
        synchronized (stopLock) {
          if (!running || evaluation != target) {
            return;
          }
          shell.stop();
        }
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "i4j-stop");
    stopper.setDaemon(true);
    stopper.start();
  }

  private static int lineAt(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static int leadingBlank(String text) {
    int i = 0;
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static int lineStart(String text, int offset) {
    int start = text.lastIndexOf('\n', Math.max(0, offset - 1));
    return start < 0 ? 0 : start + 1;
  }

  private static String lineText(String text, int offset) {
    int start = lineStart(text, offset);
    int end = text.indexOf('\n', start);
    return text.substring(start, end < 0 ? text.length() : end);
  }
}
