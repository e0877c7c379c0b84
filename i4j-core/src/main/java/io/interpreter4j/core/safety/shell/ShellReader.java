package io.interpreter4j.core.safety.shell;

import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Redirect;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads shell source character by character into simple commands, the way bash would read them, closely enough to
 * analyse: quotes, escapes, {@code $(...)}, backticks, {@code ${...}}, process substitution and heredocs are
 * understood; anything it cannot read degrades to plain words, never an error. One reader reads one source.
 */
final class ShellReader {

  /** A heredoc opened on a command line: its body follows the line and goes into {@code bodies}. */
  private record PendingHeredoc(String delimiter, boolean stripTabs, List<String> bodies) {}

  private final String src;
  private final int n;
  private int i;
  private final List<Command> out = new ArrayList<>();
  private List<Word> words = new ArrayList<>();
  private List<Redirect> redirects = new ArrayList<>();
  private List<String> bodies = new ArrayList<>();
  private int cmdStart;
  private int pipeline;
  private final List<Part> parts = new ArrayList<>();
  private final StringBuilder text = new StringBuilder();
  private boolean textQuoted;
  private boolean wordStarted;
  private int wordStart = -1;
  private String pendingRedirect;
  private final List<PendingHeredoc> heredocs = new ArrayList<>();

  private ShellReader(String src) {
    this.src = src;
    this.n = src.length();
  }

  /** The simple commands of a script in source order; heredoc bodies hang off the command that opened them. */
  static List<Command> read(String src) {
    ShellReader reader = new ShellReader(src);
    reader.run();
    return reader.out;
  }

  private void run() {
    while (i < n) {
      char c = src.charAt(i);
      switch (c) {
        case ' ', '\t', '\r' -> {
          finishWord();
          i++;
        }
        case '\n' -> {
          endCommand(i, 1, false);
          readHeredocBodies();
        }
        case '\\' -> {
          if (i + 1 < n && src.charAt(i + 1) == '\n') {
            i += 2;
          } else {
            startWord();
            if (i + 1 < n) {
              appendText(String.valueOf(src.charAt(i + 1)), true);
            }
            i += 2;
          }
        }
        case '#' -> {
          if (!wordStarted) {
            while (i < n && src.charAt(i) != '\n') {
              i++;
            }
          } else {
            appendText("#", false);
            i++;
          }
        }
        case '\'' -> {
          startWord();
          int end = src.indexOf('\'', i + 1);
          if (end < 0) {
            end = n;
          }
          appendText(src.substring(i + 1, end), true);
          i = Math.min(n, end + 1);
        }
        case '"' -> {
          startWord();
          readDoubleQuoted();
        }
        case '`' -> {
          startWord();
          int end = i + 1;
          while (end < n && src.charAt(end) != '`') {
            end += src.charAt(end) == '\\' ? 2 : 1;
          }
          addPart(new Part(PartKind.SUBST, src.substring(i + 1, Math.min(end, n)), false, true));
          i = Math.min(n, end + 1);
        }
        case '$' -> {
          startWord();
          readDollar(false);
        }
        case ';' -> {
          int len = (i + 1 < n && (src.charAt(i + 1) == ';' || src.charAt(i + 1) == '&')) ? 2 : 1;
          endCommand(i, len, false);
        }
        case '&' -> {
          if (i + 1 < n && src.charAt(i + 1) == '&') {
            endCommand(i, 2, false);
          } else if (i + 1 < n && src.charAt(i + 1) == '>') {
            finishWord();
            boolean append = i + 2 < n && src.charAt(i + 2) == '>';
            pendingRedirect = append ? "&>>" : "&>";
            i += append ? 3 : 2;
          } else {
            endCommand(i, 1, false);
          }
        }
        case '|' -> {
          if (i + 1 < n && src.charAt(i + 1) == '|') {
            endCommand(i, 2, false);
          } else {
            endCommand(i, (i + 1 < n && src.charAt(i + 1) == '&') ? 2 : 1, true);
          }
        }
        case '(' -> {
          if (wordStarted && text.length() > 0 && text.charAt(text.length() - 1) == '=') {
            // array assignment: arr=(a b c) holds words, not commands
            int end = closingParen(i + 1);
            appendText(src.substring(i, Math.min(n, end + 1)), true);
            i = Math.min(n, end + 1);
          } else if (!wordStarted && isCommandEmpty() && i + 1 < n && src.charAt(i + 1) == '(') {
            int end = src.indexOf("))", i + 2);
            i = end < 0 ? n : end + 2;
          } else {
            endCommand(i, 1, false);
          }
        }
        case ')' -> endCommand(i, 1, false);
        case '<', '>' -> readAngle();
        default -> {
          startWord();
          int end = i + 1;
          while (end < n && !ShellSyntax.isSpecial(src.charAt(end))) {
            end++;
          }
          appendText(src.substring(i, end), false);
          i = end;
        }
      }
    }
    endCommand(n, 0, false);
  }

  private void readAngle() {
    if (i + 1 < n && src.charAt(i + 1) == '(') {
      startWord();
      int end = closingParen(i + 2);
      addPart(new Part(PartKind.SUBST, src.substring(i + 2, Math.min(end, n)), false, false));
      i = Math.min(n, end + 1);
      return;
    }
    // a word made only of digits right before the operator is a file descriptor, not an argument
    if (wordStarted && parts.isEmpty() && !textQuoted && ShellSyntax.isDigits(text)) {
      resetWord();
    } else {
      finishWord();
    }
    String op = ShellSyntax.redirectOperator(src, i);
    i += op.length();
    pendingRedirect = op;
  }

  private void readDoubleQuoted() {
    i++;
    while (i < n) {
      char c = src.charAt(i);
      if (c == '"') {
        i++;
        return;
      }
      if (c == '\\' && i + 1 < n) {
        char next = src.charAt(i + 1);
        if (next == '\n') {
          i += 2;
        } else if (next == '"' || next == '\\' || next == '$' || next == '`') {
          appendText(String.valueOf(next), true);
          i += 2;
        } else {
          appendText("\\", true);
          i++;
        }
      } else if (c == '$') {
        readDollar(true);
      } else if (c == '`') {
        int end = i + 1;
        while (end < n && src.charAt(end) != '`') {
          end += src.charAt(end) == '\\' ? 2 : 1;
        }
        addPart(new Part(PartKind.SUBST, src.substring(i + 1, Math.min(end, n)), true, true));
        i = Math.min(n, end + 1);
      } else {
        appendText(String.valueOf(c), true);
        i++;
      }
    }
  }

  private void readDollar(boolean quoted) {
    if (i + 1 >= n) {
      appendText("$", quoted);
      i++;
      return;
    }
    char next = src.charAt(i + 1);
    if (next == '(' && i + 2 < n && src.charAt(i + 2) == '(') {
      int end = src.indexOf("))", i + 3);
      end = end < 0 ? n : end;
      addPart(new Part(PartKind.VAR, "((" + src.substring(i + 3, end) + "))", quoted, false));
      i = Math.min(n, end + 2);
    } else if (next == '(') {
      int end = closingParen(i + 2);
      addPart(new Part(PartKind.SUBST, src.substring(i + 2, Math.min(end, n)), quoted, true));
      i = Math.min(n, end + 1);
    } else if (next == '{') {
      int end = closingBrace(i + 2);
      addPart(ShellSyntax.braceVariable(src.substring(i + 2, Math.min(end, n)), quoted));
      i = Math.min(n, end + 1);
    } else if (next == '\'' && !quoted) {
      int end = i + 2;
      StringBuilder sb = new StringBuilder();
      while (end < n && src.charAt(end) != '\'') {
        char ch = src.charAt(end);
        if (ch == '\\' && end + 1 < n) {
          char e = src.charAt(end + 1);
          sb.append(switch (e) {
            case 'n' -> '\n';
            case 't' -> '\t';
            default -> e;
          });
          end += 2;
        } else {
          sb.append(ch);
          end++;
        }
      }
      appendText(sb.toString(), true);
      i = Math.min(n, end + 1);
    } else if (next == '"' && !quoted) {
      i++;
      readDoubleQuoted();
    } else if (Character.isLetter(next) || next == '_') {
      int end = i + 1;
      while (end < n && (Character.isLetterOrDigit(src.charAt(end)) || src.charAt(end) == '_')) {
        end++;
      }
      addPart(new Part(PartKind.VAR, src.substring(i + 1, end), quoted, true));
      i = end;
    } else if (Character.isDigit(next) || "@*#?$!-".indexOf(next) >= 0) {
      boolean mayBeEmpty = Character.isDigit(next) || next == '@' || next == '*' || next == '-';
      addPart(new Part(PartKind.VAR, String.valueOf(next), quoted, mayBeEmpty));
      i += 2;
    } else {
      appendText("$", quoted);
      i++;
    }
  }

  /** Index of the {@code )} closing a group whose content starts at {@code from}; n when unterminated. */
  private int closingParen(int from) {
    return ShellSyntax.closing(src, from, '(', ')');
  }

  private int closingBrace(int from) {
    return ShellSyntax.closing(src, from, '{', '}');
  }

  private void readHeredocBodies() {
    for (PendingHeredoc h : heredocs) {
      StringBuilder body = new StringBuilder();
      while (i < n) {
        int eol = src.indexOf('\n', i);
        int lineEnd = eol < 0 ? n : eol;
        String line = src.substring(i, lineEnd);
        i = eol < 0 ? n : eol + 1;
        String cmp = h.stripTabs() ? line.replaceFirst("^\t+", "") : line;
        if (cmp.equals(h.delimiter())) {
          break;
        }
        body.append(line).append('\n');
      }
      h.bodies().add(body.toString());
    }
    heredocs.clear();
    cmdStart = i;
  }

  private void startWord() {
    if (!wordStarted) {
      wordStarted = true;
      wordStart = i;
    }
  }

  private void appendText(String s, boolean quoted) {
    startWord();
    if (text.length() > 0 && quoted != textQuoted) {
      flushText();
    }
    textQuoted = quoted;
    text.append(s);
  }

  private void addPart(Part p) {
    flushText();
    parts.add(p);
  }

  private void flushText() {
    if (text.length() > 0) {
      parts.add(new Part(PartKind.TEXT, text.toString(), textQuoted, false));
      text.setLength(0);
    }
  }

  private void resetWord() {
    parts.clear();
    text.setLength(0);
    wordStarted = false;
  }

  private void finishWord() {
    if (!wordStarted) {
      return;
    }
    flushText();
    if (parts.isEmpty()) {
      parts.add(new Part(PartKind.TEXT, "", true, false));
    }
    Word w = new Word(parts, src.substring(wordStart, Math.min(i, n)));
    resetWord();
    if (pendingRedirect != null) {
      String op = pendingRedirect;
      pendingRedirect = null;
      redirects.add(new Redirect(op, w));
      if (op.equals("<<") || op.equals("<<-")) {
        heredocs.add(new PendingHeredoc(ShellSyntax.unquoted(w), op.equals("<<-"), bodies));
      }
    } else {
      words.add(w);
    }
  }

  /** Closes the current command at {@code at}; the operator there is {@code len} chars long. */
  private void endCommand(int at, int len, boolean pipe) {
    finishWord();
    pendingRedirect = null;
    if (!isCommandEmpty()) {
      // the heredoc bodies are read after the line, into the list the command already holds
      out.add(new Command(words, redirects, bodies, src.substring(Math.min(cmdStart, at), at).strip(), pipeline));
      words = new ArrayList<>();
      redirects = new ArrayList<>();
      bodies = new ArrayList<>();
      if (!pipe) {
        pipeline++;
      }
    }
    // an empty command (a blank line after "|", a group's parenthesis) leaves the pipeline as it is
    i = at + len;
    cmdStart = i;
  }

  private boolean isCommandEmpty() {
    return words.isEmpty() && redirects.isEmpty();
  }
}
